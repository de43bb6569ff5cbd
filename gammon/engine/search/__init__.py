"""The search: plays expanded and evaluated to 0, 1 or 2 plies, with move filters, and the
compiled leaves and best children."""
