# Clockevents and dynamic ticks for Linux 6.12: harness entry points.
# Everything is done by harness/th; see README.md.
TH := harness/th

.PHONY: run check check-upstream bench soak series deps tree clean
run:
	@$(TH) run
check:
	@$(TH) check
check-upstream:
	@$(TH) check-upstream
bench:
	@$(TH) bench
soak:
	@$(TH) soak
series:
	@$(TH) series
deps:
	@$(TH) deps
tree:
	@$(TH) tree
clean:
	rm -rf build
