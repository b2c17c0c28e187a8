"""``python -m cipherlab`` runs the command-line interface."""

from cipherlab.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
