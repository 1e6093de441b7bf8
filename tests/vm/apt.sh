#!/bin/bash
# apt-get or apt-cache against one Debian suite, with a private configuration:
# its own sources list, package lists, caches and (empty) dpkg status under
# the cache directory. The system's apt state is never read for packages nor
# written. The archive URIs are the machine's own, read at run time from its
# configured sources, so nothing here names a mirror.
#
#   apt.sh SUITE apt-get|apt-cache ARGS...
#   apt.sh SUITE refresh       (only refresh the lists if they are old)
#
# SUITE: bullseye, bookworm, trixie, sid (or any suite the mirror serves;
# SUITE-updates and SUITE-security are added where they exist).
# The suite's lists are refreshed when older than UVIO_APT_MAX_AGE seconds
# (default 21600; 0 refreshes on every call); when a refresh fails, lists
# already there are used and a warning says so.
# Cache directory: $UVIO_CACHE, default ~/.cache/uvio.
set -euo pipefail
suite=$1 tool=$2; shift 2
case $tool in apt-get|apt-cache|refresh) ;; *) echo "apt.sh: apt-get or apt-cache, not $tool" >&2; exit 2 ;; esac
case $suite in *[!a-z0-9-]*|"") echo "apt.sh: bad suite '$suite'" >&2; exit 2 ;; esac
cache=${UVIO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/uvio}
dir=$cache/apt/$suite
mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/state" "$dir/etc/none.d"
log() { printf 'apt.sh: %s\n' "$*" >&2; }

# The machine's archive and security archive, as its own apt sees them.
sources=$dir/etc/sources.list
if [ ! -s "$sources" ]; then
	targets=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null | sort -u)
	main=$(awk '$2 !~ /-(security|updates|backports)$/ { print $1; exit }' <<<"$targets")
	security=$(awk '$2 ~ /-security$/ { print $1; exit }' <<<"$targets")
	[ -n "$main" ] || { log "the machine's apt has no Debian archive configured"; exit 1; }
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	{
		echo "deb [signed-by=$keyring] $main $suite main"
		case $suite in
		sid|unstable|experimental) ;;
		*)
			echo "deb [signed-by=$keyring] $main $suite-updates main"
			[ -n "$security" ] && echo "deb [signed-by=$keyring] $security $suite-security main"
			;;
		esac
	} > "$sources.tmp"
	mv "$sources.tmp" "$sources"
fi
: >> "$dir/state/status"
: >> "$dir/etc/preferences"

opts=(-o "Dir::Etc::sourcelist=$sources" -o "Dir::Etc::sourceparts=$dir/etc/none.d"
      -o "Dir::Etc::preferences=$dir/etc/preferences" -o "Dir::Etc::preferencesparts=$dir/etc/none.d"
      -o "Dir::State=$dir/state" -o "Dir::State::Lists=$dir/lists"
      -o "Dir::State::status=$dir/state/status" -o "Dir::Cache=$dir/cache"
      -o "APT::Architecture=amd64" -o "APT::Architectures=amd64"
      -o "Acquire::Languages=none" -o "APT::Sandbox::User=root")

# One refresh at a time per suite, also across concurrent runs.
exec 9>"$dir/lock"
flock 9
stamp=$dir/updated
age=$(( $(date +%s) - $(stat -c %Y "$stamp" 2>/dev/null || echo 0) ))
if [ "$age" -ge "${UVIO_APT_MAX_AGE:-21600}" ]; then
	log "refreshing the package lists of $suite"
	if apt-get "${opts[@]}" -q update >"$dir/update.log" 2>&1 &&
	   ! grep -q '^\(W\|E\): ' "$dir/update.log"; then
		touch "$stamp"
	elif compgen -G "$dir/lists/*_Packages*" >/dev/null; then
		log "WARNING: refreshing $suite failed, using the lists from" \
		    "$(date -r "$dir/lists" '+%F %T'):"
		sed 's/^/  /' "$dir/update.log" | grep '[WE]: ' >&2 || true
	else
		cat "$dir/update.log" >&2
		log "no package lists for $suite"
		exit 1
	fi
fi
flock -u 9
[ "$tool" = refresh ] && exit 0
exec "$tool" "${opts[@]}" "$@"
