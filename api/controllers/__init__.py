"""Route handlers, grouped by resource."""
