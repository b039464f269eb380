"""The stages of tools/gen_api.py: libraries (data), manifests, clang, merge, render."""
