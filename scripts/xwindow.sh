# Sourced by the Xvfb scripts (needs xdotool and DISPLAY).
# window NAME: the id of the first window whose name matches NAME, polled
# for 30 s (a search can fail to open the display just after Xvfb said it
# was ready: seen under load).
window() {
	local id
	for _ in $(seq 300); do
		id="$(xdotool search --name "$1" 2>/dev/null | head -n 1)" || true
		[ -n "$id" ] && { echo "$id"; return 0; }
		sleep 0.1
	done
	return 1
}
