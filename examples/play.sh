#!/usr/bin/env bash
# Play a whole Cuccù match with nothing but curl, jq and bash, following docs/API.md.
#
#   examples/play.sh [API_URL]        (default: $CUCCU_API_URL or http://127.0.0.1:8000)
#
# It creates a match with one open seat and three bots, claims the open seat, then reads its
# view and answers every pending decision until the match is over. Environment: NAME (the
# display name, default "shell"), LIVES (starting lives, default 2), EXPORT (a file to write the
# finished match's NDJSON log to). Exit status 0 once the match is over.
set -euo pipefail

API="${1:-${CUCCU_API_URL:-http://127.0.0.1:8000}}"
NAME="${NAME:-shell}"
LIVES="${LIVES:-2}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

for tool in curl jq; do
    command -v "$tool" >/dev/null || { echo "play.sh needs $tool" >&2; exit 2; }
done

new_key() {  # a fresh Idempotency-Key per command
    cat /proc/sys/kernel/random/uuid 2>/dev/null || echo "key-$RANDOM-$RANDOM-$(date +%s%N)"
}

# request METHOD PATH [BODY] [EXTRA CURL ARGS...]: the body goes to $TMP/body, the headers to
# $TMP/headers; prints the HTTP status. 429 and 503 are retried after Retry-After seconds, with
# the same request (and so the same Idempotency-Key).
request() {
    local method=$1 path=$2 body=${3:-} status wait
    shift 3 || shift $#
    for attempt in 1 2 3 4 5 6; do
        args=(-sS -X "$method" "$API$path" -o "$TMP/body" -D "$TMP/headers" -w '%{http_code}')
        [ -n "${TOKEN:-}" ] && args+=(-H "Authorization: Bearer $TOKEN")
        [ -n "$body" ] && args+=(-H 'Content-Type: application/json' --data "$body")
        status=$(curl "${args[@]}" "$@") || true
        if [ "$status" != 429 ] && [ "$status" != 503 ]; then
            echo "$status"
            return
        fi
        wait=$(tr -d '\r' <"$TMP/headers" | awk -F': ' 'tolower($1)=="retry-after"{print $2}')
        sleep "${wait:-$attempt}"
    done
    echo "$status"
}

fail() {  # print the problem document of a failed request and stop
    echo "play.sh: $1: $(jq -r '"\(.status) \(.type): \(.detail)"' "$TMP/body" 2>/dev/null \
        || cat "$TMP/body")" >&2
    exit 1
}

# 1. Create a match: an open seat (for us) and three bots.
status=$(request POST /matches '{
  "seats": [{"name": "open", "kind": "open"},
            {"name": "Bo", "kind": "bot", "bot_level": "basic"},
            {"name": "Cy", "kind": "bot", "bot_level": "random"},
            {"name": "Di", "kind": "bot", "bot_level": "basic"}],
  "starting_lives": '"$LIVES"'}')
[ "$status" = 201 ] || fail "create"
MATCH=$(jq -r .match_id "$TMP/body")
echo "match $MATCH created"

# 2. Claim seat 0: the answer holds its secret token, shown only this once.
status=$(request POST "/matches/$MATCH/seats/0/claim" "$(jq -n --arg n "$NAME" '{name: $n}')")
[ "$status" = 201 ] || fail "claim"
TOKEN=$(jq -r .token "$TMP/body")
SEAT=$(jq -r .seat "$TMP/body")
echo "claimed seat $SEAT as $NAME"

# How safe a card is at scoring (docs/API.md, "Cards"): higher is safer; a lone fool is weak.
strength() {
    case "${1%%#*}" in
        lion) echo -3 ;; mask) echo -2 ;; bucket | fool) echo -1 ;; zero) echo 0 ;;
        inn) echo 11 ;; cat) echo 12 ;; horse) echo 13 ;; hunter) echo 14 ;; cuckoo) echo 15 ;;
        *) echo "${1%%#*}" ;;
    esac
}

# 3. Read the view, answer what is pending for us, until the match is over.
decisions=0
while :; do
    status=$(request GET "/matches/$MATCH")
    [ "$status" = 200 ] || fail "view"
    [ "$(jq -r .view.status "$TMP/body")" = over ] && break
    version=$(jq -r .version "$TMP/body")
    kind=$(jq -r '.view.pending.kind' "$TMP/body")
    seat=$(jq -r '.view.pending.seat // "any"' "$TMP/body")
    hand=$(jq -r '.view.hand // ""' "$TMP/body")
    if [ "$kind" != next_round ] && [ "$seat" != "$SEAT" ]; then
        sleep 0.2  # not ours to decide (another person's turn): look again
        continue
    fi
    case "$kind" in
        turn) [ "$(strength "$hand")" -le 4 ] && choice=exchange || choice=keep ;;
        dealer_turn) [ "$(strength "$hand")" -le 3 ] && choice=exchange || choice=keep ;;
        inn_choice) choice=inn_ask_pay ;;
        inn_response) choice=inn_accept ;;
        *) choice=next_round hand="" ;;
    esac
    body=$(jq -n --arg t "$choice" --argjson v "$version" '{type: $t, expected_version: $v}')
    status=$(request POST "/matches/$MATCH/commands" "$body" -H "Idempotency-Key: $(new_key)")
    case "$status" in
        200) decisions=$((decisions + 1))
             echo "v$version $kind${hand:+ holding $hand}: $choice" ;;
        409) ;;  # the match moved on meanwhile: read the view again
        *) fail "$choice" ;;
    esac
done

# 4. The result, and the complete log of the finished match.
winner=$(jq -r .view.winner "$TMP/body")
echo "match over after $decisions decisions: seat $winner" \
     "($(jq -r ".view.seats[$winner].name" "$TMP/body")) won;" \
     "we have $(jq -r ".view.seats[$SEAT].lives" "$TMP/body") lives"
if [ -n "${EXPORT:-}" ]; then
    unset TOKEN
    status=$(request GET "/matches/$MATCH/export")
    [ "$status" = 200 ] || fail "export"
    cp "$TMP/body" "$EXPORT"
    echo "log exported to $EXPORT"
fi
