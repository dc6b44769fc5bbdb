"""LED scenes: what the board should show (a View) rendered into pixel frames."""
