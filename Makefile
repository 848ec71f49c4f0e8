# kvmbook: a literate program that teaches the Linux KVM API.
# The book (book/*.nw) is the source; everything else is made from it.

.DEFAULT_GOAL := all
BUILD := build
BOOK := $(wildcard book/*.nw)

help:				## List the targets a reader uses
	@awk -F':.*## ' '/^[a-z-]+:.*## / { printf "  make %-14s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

all: packages tangle weave run	## The main job: tangle, render the book, run it in the guest

# Every package first, before any job runs two things side by side
packages:			## Install the Debian packages of every job (root), or name them
	@tools/need all

# The book and what it tangles to
tangle:				## Write tangled/ and patches/ from the book
	@tools/need tangle
	@tools/tangle

weave:				## Render the book to build/book/kvmbook.{html,pdf}
	@tools/weave $(BUILD)/book

programs:			## Compile the book's programs (they run only in the guest)
	@tools/build-programs $(BUILD)/programs

# Running the book inside a freshly built, patched kernel
kernel:				## Build the patched guest kernel, its sample and selftests
	@tools/build-kernel

run:				## Boot the patched kernel in QEMU and run the book's program
	@tools/run

# The checks: the book's claims, then the checks' own ability to fail
CHECKS := check-tangle check-guests check-programs check-patches check-map check-book check-kernel check-checks
check: packages $(CHECKS)	## Run every check, in that order
	@echo "make check: all checks passed"

check-tangle:			## tangled/ and patches/ equal what the book tangles to
	@tools/need tangle
	@tools/check-tangle

check-guests:			## Each guest's bytes are what GNU as makes of its source
	@tools/check-guests

check-programs: programs	## The programs compile warning-free and pass cppcheck

check-book: weave		## The HTML's links resolve in Chromium; the PDF keeps indentation
	@tools/check-browser $(BUILD)/book
	@tools/check-pdf $(BUILD)/book

check-patches:			## The series applies, equals git format-patch, passes checkpatch
	@tools/check-patches

check-map:			## Each then-and-now row names a symbol its 6.1 file defines
	@tools/check-map

check-kernel:			## Boot every lane and compare each session with the book
	@tools/check-kernel

check-checks:			## Each way of breaking the book fails its check, saying how
	@tools/test-need
	@tools/test-student-loop
	@tools/test-check-map
	@tools/test-check-guests
	@tools/test-check-kernel
	@tools/test-mutations
	@tools/test-unrestricted-guest

clean:				## Remove build products (keeps the unpacked kernel tree)
	rm -rf $(BUILD)/book $(BUILD)/programs

.PHONY: help all packages tangle weave programs kernel run check check-tangle check-guests \
	check-programs check-patches check-map check-book check-kernel check-checks clean
