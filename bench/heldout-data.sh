#!/bin/sh
# bench/heldout-data.sh [DIR]: build the held-out documentation sets of
# bench/heldout.sh (default build/heldout) from Debian documentation
# packages that bench-quality does not use: extraction pages with their
# gold, and labelled pairs (bench/mkheldout.py; bench/README says which
# sources are TUNE and which HELD, and the gold's selector per generator).
# As root it installs the packages (apt-get); otherwise it says how and
# exits 0 without a set. Offline once installed; deterministic.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/build/heldout}
pkgs="sphinx-doc python-flask-doc cmake-doc debian-faq maint-guide maint-guide-ja
maint-guide-zh-cn libjsoncpp-doc junit4-doc debian-handbook debian-reference-en
debian-reference-ja debian-reference-zh-cn llvm-14-doc llvm-15-doc developers-reference
developers-reference-ja python-requests-doc python-click-doc python-jinja2-doc git-doc
mkdocs-doc libgcrypt20-doc libglib2.0-doc libjson-glib-doc libgdk-pixbuf2.0-doc cargo-doc"
missing=
for p in $pkgs; do
	dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "heldout-data: installing$missing" >&2
		# shellcheck disable=SC2086
		apt-get install -y --no-install-recommends $missing >/dev/null ||
			{ apt-get update >/dev/null && apt-get install -y --no-install-recommends $missing >/dev/null; }
	else
		echo "heldout-data: skipped: as root, apt-get install -y$missing" >&2
		exit 0
	fi
fi
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
python3 "$here/bench/mkheldout.py" "$out.tmp"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "heldout-data: $(wc -l <"$out/extract/gold") extraction pages, $(wc -l <"$out/labels.tsv") labelled pairs, $(wc -l <"$out/gray.tsv") gray in $out" >&2
