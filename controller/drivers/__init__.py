"""Hardware backends behind two small interfaces (base.py), built from the profile by factory.py."""
