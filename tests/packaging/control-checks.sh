# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by compare-debian.sh --debs: the control data of our packages.
#   control_checks DEBDIR
# Each library package replaces one of Debian's (Multi-Arch: same,
# Provides/Conflicts/Replaces of the Debian name on its own architecture)
# at a version that satisfies every versioned dependency the installed
# packages have on that name (v4l-utils wants libv4l-0 "=" Debian's); the
# symbols files cover the three libraries; apt, asked to install our
# packages, removes Debian's three of this architecture (when installed:
# debian_installed=1) and nothing else. Uses ok/ko.

# Debian's name of each of our packages.
REPLACED="libv4l-cr0=libv4l-0 libv4lconvert-cr0=libv4lconvert0 libv4l-cr-dev=libv4l-dev"

# The installed packages' versioned dependencies on NAME, one per line:
# "package op version" (clauses with alternatives are left out: another
# alternative may satisfy them).
versioned_deps() { # name arch
	dpkg-query -W -f '${Package}:${Architecture}\t${Depends}, ${Pre-Depends}\n' \
		2>/dev/null |
	awk -F '\t' -v name="$1" -v arch="$2" '
	$1 !~ ":(" arch "|all)$" { next }
	{
		n = split($2, clause, ",")
		for (i = 1; i <= n; i++) {
			c = clause[i]
			if (c ~ /\|/) continue
			gsub(/^ +| +$/, "", c)
			if (!match(c, "^" name "(:" arch "|:any)? \\(")) continue
			sub("^" name "(:" arch "|:any)? \\(", "", c)
			sub(/\)$/, "", c)
			split(c, rel, " ")
			print $1, rel[1], rel[2]
		}
	}'
}

control_checks() {
	local dir=$1 arch ours debian deb v prov need pkg op ver
	arch=$(dpkg --print-architecture)
	for pair in $REPLACED; do
		ours=${pair%=*} debian=${pair#*=}
		deb=$(ls "$dir/${ours}"_*_"$arch".deb 2>/dev/null | head -n 1)
		if [ -z "$deb" ]; then
			ko "no $ours package for $arch in $dir"
			continue
		fi
		[ "$(dpkg-deb -f "$deb" Multi-Arch)" = same ] &&
			ok "$ours: Multi-Arch: same" || ko "$ours is not Multi-Arch: same"
		prov=$(dpkg-deb -f "$deb" Provides)
		v=$(echo "$prov" | sed -n "s/.*\\b$debian (= \\([^)]*\\)).*/\\1/p")
		if [ -z "$v" ]; then
			ko "$ours does not provide $debian at a version: '$prov'"
			continue
		fi
		for f in Conflicts Replaces; do
			if dpkg-deb -f "$deb" $f | grep -qE "(^|, )$debian:$arch(,|$)"; then
				ok "$ours: $f: $debian:$arch"
			else
				ko "$ours: $f is '$(dpkg-deb -f "$deb" $f)', want $debian:$arch"
			fi
		done
		need=$(versioned_deps "$debian" "$arch" | grep -v "^libv4l")
		while read -r pkg op ver; do
			[ -n "$pkg" ] || continue
			case $op in
			'=') op=eq ;; '>=') op=ge ;; '<=') op=le ;;
			'>>') op=gt ;; '<<') op=lt ;;
			esac
			if dpkg --compare-versions "$v" "$op" "$ver"; then
				ok "$pkg's dependency on $debian ($op $ver) holds with $ours ($debian = $v)"
			else
				ko "$pkg needs $debian ($op $ver): $ours provides $v"
			fi
		done <<<"$need"
	done

	for lib in "libv4l-cr0 libv4l1.so.0" "libv4l-cr0 libv4l2.so.0" \
			"libv4lconvert-cr0 libv4lconvert.so.0"; do
		set -- $lib
		deb=$(ls "$dir/$1"_*_"$arch".deb 2>/dev/null | head -n 1)
		# grep -q on a here-string: stopping at the first line, it would
		# leave tar a broken pipe, which pipefail counts as failure.
		if [ -n "$deb" ] && grep -q "^$2 " <<<"$(dpkg-deb --ctrl-tarfile \
				"$deb" | tar -xO ./symbols 2>/dev/null)"; then
			ok "$1's symbols file covers $2"
		else
			ko "$1 has no symbols for $2"
		fi
	done
	deb=$(ls "$dir"/libv4l-cr-tools_*_"$arch".deb 2>/dev/null | head -n 1)
	if [ -n "$deb" ] && [ "$(dpkg-deb -f "$deb" Multi-Arch)" = foreign ]; then
		ok "libv4l-cr-tools: Multi-Arch: foreign"
	else
		ko "libv4l-cr-tools missing or not Multi-Arch: foreign"
	fi

	# What apt would do (a simulation: nothing changes).
	local sim removed installed want
	if sim=$(apt-get -s -q -o Debug::NoLocking=1 install \
			"$(realpath "$dir")"/*_"$arch".deb 2>&1); then
		removed=$(echo "$sim" | awk '/^Remv / { print $2 }' | sort | xargs)
		installed=$(echo "$sim" | awk '/^Inst / { print $2 }' | sort | xargs)
		want=
		[ "${debian_installed:-0}" = 1 ] &&
			want="libv4l-0:$arch libv4l-dev:$arch libv4lconvert0:$arch"
		# apt names a package of the native architecture without it
		# when no other instance is installed.
		removed=$(for r in $removed; do
			case $r in *:*) echo "$r" ;; *) echo "$r:$arch" ;; esac
		done | xargs)
		if [ "$removed" = "$want" ]; then
			ok "apt install of our packages removes $removed, installs $installed"
		else
			ko "apt install of our packages removes '$removed', installs '$installed'"
		fi
	else
		ko "apt-get -s install fails: $(echo "$sim" | tail -n 5)"
	fi
	[ "${debian_installed:-0}" = 1 ] && apt_way_back "$dir" "$arch"
}

# The way back the README gives (apt install libv4l-0 libv4lconvert0
# libv4l-dev), planned by apt on a copy of dpkg's status in which ours
# replace Debian's: apt must remove ours (the tools with them) and install
# Debian's three, nothing else.
apt_way_back() { # debdir arch
	local dir=$1 arch=$2 status sim removed installed deb
	status=$(mktemp "${TMPDIR:-/tmp}/status.XXXXXX")
	awk -v RS= -v ORS='\n\n' -v arch="$arch" '
		/(^|\n)Package: (libv4l-0|libv4lconvert0|libv4l-dev)\n/ &&
		$0 ~ "\nArchitecture: " arch "\n" { next }
		{ print }' /var/lib/dpkg/status >"$status"
	for deb in "$dir"/*_"$arch".deb; do
		dpkg-deb -f "$deb"
		printf 'Status: install ok installed\n\n'
	done >>"$status"
	sim=$(apt-get -s -q -o Debug::NoLocking=1 -o Dir::State::status="$status" \
		install libv4l-0:"$arch" libv4lconvert0:"$arch" libv4l-dev:"$arch" 2>&1)
	rm -f "$status"
	removed=$(echo "$sim" | awk '/^Remv / { print $2 }' | sed "s/:$arch\$//" | sort | xargs)
	installed=$(echo "$sim" | awk '/^Inst / { print $2 }' | sed "s/:$arch\$//" | sort | xargs)
	if [ "$removed" = "libv4l-cr-dev libv4l-cr-tools libv4l-cr0 libv4lconvert-cr0" ] &&
			[ "$installed" = "libv4l-0 libv4l-dev libv4lconvert0" ]; then
		ok "apt install libv4l-0 libv4lconvert0 libv4l-dev (the way back) removes $removed, installs $installed"
	else
		ko "the way back: apt removes '$removed', installs '$installed': $(echo "$sim" | grep -E '^E:' | head -n 3)"
	fi
}
