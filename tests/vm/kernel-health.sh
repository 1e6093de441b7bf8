#!/bin/sh
# Reads a kernel log (dmesg) on standard input and prints each oops it holds
# with the lines that follow it; exits 1 when there is one. Warnings are
# printed too but do not fail. The guests' inits run it on dmesg after the
# tests: the console shows only errors (loglevel=3), and an oops that does
# not kill the test program would otherwise pass unseen.
awk '
/Oops:|BUG: |general protection fault|kernel BUG at|Unable to handle kernel/ {
	bad = 1; more = 30; print "KERNEL-OOPS: " $0; next
}
/WARNING: / { more = 15; print "KERNEL-WARNING: " $0; next }
more > 0 { more--; print "    " $0 }
END { exit bad }'
