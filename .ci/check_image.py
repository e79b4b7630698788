"""Fails unless the PNG exists and is not blank (near-uniform pixels)."""
import sys

from PIL import Image, ImageStat

path = sys.argv[1]
try:
    image = Image.open(path).convert("RGB")
except Exception as e:  # missing or unreadable
    sys.exit(f"screenshot check: cannot open {path}: {e}")
stats = ImageStat.Stat(image)
spread = max(stats.stddev)
colours = len(image.getcolors(maxcolors=1 << 20) or [])
print(f"screenshot {path}: {image.size[0]}x{image.size[1]}, channel stddev {spread:.1f}, {colours} colours")
if spread < 8 or colours < 64:
    sys.exit("screenshot check: the image is blank (near-uniform pixels)")
