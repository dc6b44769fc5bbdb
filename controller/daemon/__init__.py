"""The daemon: config, runtime (queue + core thread + producers), systemd notify, web console and
simulator, doctor and selftest. Nothing here touches hardware at import time."""
