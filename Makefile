# kvmbook: a literate program that teaches the Linux KVM API.
# The book (book/*.nw) is the source; everything else is made from it.

.DEFAULT_GOAL := all
BUILD := build
BOOK := $(wildcard book/*.nw)

help:				## List the targets a reader uses
	@awk -F':.*## ' '/^[a-z-]+:.*## / { printf "  make %-14s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

# The book's packages first, then the kernels build at the lowest priority
# beside the weave and the other installs.
all: named			## The main job: tangle, render the book, run it in the guest
	@tools/need tangle weave
	@tools/kernel-ahead $(MAKE) --no-print-directory book packages run

# Without root, one message names every package before anything runs; as
# root, each job installs its own when it comes (tools/need).
named:
	@tools/need -n all

packages:			## Install the Debian packages of every job (root), or name them
	@tools/need all

# The book and what it tangles to, readable before any kernel is built
book: tangle weave		## Tangle and render the book alone: only their packages, no kernel

tangle:				## Write tangled/ and patches/ from the book
	@tools/need tangle
	@tools/tangle

weave:				## Render the book, its student edition and guide to build/book/
	@tools/weave $(BUILD)/book

programs:			## Compile the book's programs (they run only in the guest)
	@tools/build-programs $(BUILD)/programs

stage:				## A chapter's programs as they stand at its end: make stage CHAPTER=NN|40-disk
	@tools/need tangle
	@tools/stage $(CHAPTER)

# Running the book inside a freshly built, patched kernel
kernel:				## Build the patched guest kernel, its sample and selftests, and the SMP nested one
	@tools/build-kernel
	@tools/build-smp-kernel

run:				## Boot the patched kernel in QEMU and run the book's program
	@tools/run

# For readers and instructors
shell:				## A shell in the guest, the programs in /: make shell [BOOT=vmx]
	@tools/shell $(BOOT)

vmm-shell:			## A shell in Linux on the book's VMM: make vmm-shell [BOOT=vmx]
	@tools/shell $(or $(BOOT),svm) vmm

try:				## Run your program in the guest: make try FILE=my.c|FOLDER [RUN='./my -x'] [BOOT=vmx]
	@tools/try $(FILE) $(BOOT)

grade:				## Judge answers: make grade EXERCISE=ex-string ANSWERS=dir-or-files
	@tools/grade $(EXERCISE) $(ANSWERS)

# The checks: the book's claims, then the checks' own ability to fail.  A check
# that passed is not run again while what it depends on stays the same
# (tools/depends; each boot by what it boots, tools/check-kernel): it says SKIP
# and since when.  FRESH=1 runs every check regardless; CI's fresh clone always does.
CHECKS := check-tangle check-guests check-programs check-stages check-fuzz check-patches check-map check-book \
	check-kernel check-checks
# The tests of the checks, the longest first: they run side by side.
TESTS_OF_CHECKS := test-kernel-lab test-reuse test-reader-tools test-check-kernel test-project test-unrestricted-guest \
	test-check-guests test-mutations test-stages test-student-loop test-check-syllabus test-check-map \
	test-need test-check-prose-symbols test-check-figures test-xref test-renumber
REUSE := tools/reuse
export FRESH RUN

# The kernels build at the lowest priority beside the checks that need none.
check: named			## Run every check, in that order
	@tools/kernel-ahead $(MAKE) --no-print-directory packages $(CHECKS)
	@echo "make check: all checks passed"

check-tangle:			## book/'s files are named for their numbers; tangled/ and patches/ equal what the book tangles to; the prose's run figures are the runs'; the syllabus's weeks keep its claims
	@tools/need tangle
	@$(REUSE) $@ tools/check-tangle
	@$(REUSE) check-figures tools/check-figures
	@$(REUSE) check-syllabus tools/check-syllabus

check-guests:			## Each guest's bytes are what GNU as makes of its source
	@$(REUSE) $@ tools/check-guests

check-programs: programs	## The programs compile warning-free and pass cppcheck

check-stages:			## Each chapter's programs, from Part III on, build from the chapters up to it
	@$(REUSE) $@ tools/check-stages

check-book: weave		## The HTML in Chromium, the PDFs' text, the EPUB by EPUBCheck
	@$(REUSE) check-browser tools/check-browser $(BUILD)/book
	@$(REUSE) check-pdf tools/check-pdf $(BUILD)/book
	@$(REUSE) check-epub tools/check-epub $(BUILD)/book

check-fuzz:			## The device models survive fuzzed inputs; their threads race on nothing
	@$(REUSE) $@ tools/check-fuzz
	@$(REUSE) check-threads tools/check-threads

check-patches:			## The series applies, equals git format-patch, passes checkpatch
	@$(REUSE) $@ tools/check-patches

check-map:			## Each symbol the table or the prose puts in a 6.1 file is defined there
	@$(REUSE) $@ tools/check-map
	@$(REUSE) check-prose-symbols tools/check-prose-symbols

check-kernel: kernel		## Boot every lane and compare each session with the book
	@tools/check-kernel

check-checks: kernel		## Each way of breaking the book fails its check, saying how
	@tools/check-checks $(TESTS_OF_CHECKS)

fuzz:				## Fuzz each device model for minutes: make fuzz [FUZZ_SECONDS=60]
	@tools/fuzz

bench:				## Time make check, boots, devices, the VMM against microvm, and measure the prose; LOOP=N: the author's loop alone; PROSE=1: the prose alone
	@tools/bench $(if $(LOOP),loop $(LOOP),$(if $(PROSE),prose))

clean:				## Remove build products (keeps the unpacked kernel tree)
	rm -rf $(BUILD)/book $(BUILD)/programs $(BUILD)/program-cache $(BUILD)/stages $(BUILD)/fuzz

.PHONY: help all named book packages tangle weave programs stage kernel run shell vmm-shell try grade check check-tangle check-guests check-programs \
	check-stages check-fuzz check-patches check-map check-book check-kernel check-checks fuzz bench clean
