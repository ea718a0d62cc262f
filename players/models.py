"""Players are Django users; ratings and profiles build on them."""
