# The Cuccù service image: API (`cuccu run`), migrations (`cuccu db upgrade`) and the viewer.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

COPY requirements.txt ./
RUN pip install -r requirements.txt

COPY pyproject.toml README.md alembic.ini ./
COPY domain ./domain
COPY api ./api
# viewer/ carries its package data too: catalogs, the Thai font, the Rules page's texts
COPY viewer ./viewer
COPY migrations ./migrations
RUN pip install --no-deps . \
    && useradd --create-home --uid 10001 cuccu \
    && chown cuccu /app \
    && install -d -o cuccu -g cuccu -m 0700 /var/lib/cuccu

# /var/lib/cuccu: the signing key's directory, private to the service's user. A named volume
# mounted there starts as a copy of it (owner and mode included), so the key file the one-shot
# `cuccu keys init` writes (mode 0600) is the service's own (compose.yaml, docs/DEPLOY.md).
USER cuccu
ENV CUCCU_HOST=0.0.0.0 \
    CUCCU_PORT=8000
EXPOSE 8000 8501

CMD ["cuccu", "run"]
