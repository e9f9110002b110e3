"""``python -m phiscrub.cli``: the same as the ``phiscrub`` command."""

from phiscrub.cli.app import main

main()
