"""Synthetic clinical letters (Synthetic4Health): generation and evaluation."""
