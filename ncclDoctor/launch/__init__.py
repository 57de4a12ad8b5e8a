"""Launching probe runs through torchrun and supervising them."""
