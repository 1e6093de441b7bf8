#!/bin/sh
# Reads a kernel log (dmesg) on standard input and prints each oops it holds
# with the lines that follow it; exits 1 when there is one. Warnings are
# printed too but do not fail. The guests' inits run it on dmesg after the
# tests: the console shows only errors (loglevel=3), and an oops that does
# not kill the test program would otherwise pass unseen.
# The soft-lockup watchdog is printed as a warning, not an oops: under TCG
# each virtual CPU is a host thread, and on a loaded host one may not run
# for tens of seconds while the guest's clock goes on, which the watchdog
# takes for a CPU stuck in the kernel (seen in a fresh run beside four
# other guests on 2 CPUs: "soft lockup - CPU#1 stuck for 26s" in
# dummy_xmit, every test of the boot passed). A real lockup also hangs what
# runs there, and the test's bound catches that.
awk '
/watchdog: BUG: soft lockup/ { more = 15; print "KERNEL-STALL: " $0; next }
/Oops:|BUG: |general protection fault|kernel BUG at|Unable to handle kernel/ {
	bad = 1; more = 30; print "KERNEL-OOPS: " $0; next
}
/WARNING: / { more = 15; print "KERNEL-WARNING: " $0; next }
more > 0 { more--; print "    " $0 }
END { exit bad }'
