# ---------------------------------------------------------------- 004's experiments
# scripts/lwm_experiments.py (docs/lwm.md, "004's experiments") on two tiny kernels:
# it runs, every table has its rows (each kernel a row in Fig. 8, 10, 11, 9 and the
# memory table: 5), and a run whose results differ is caught.
group exp004
run e4-run 120 python3 scripts/lwm_experiments.py --kernels blackjack,aes --jobs 1 --markdown "$T/e4.md" \
    --report "$T/e4.html"
if [ $RC -eq 0 ] && grep -q "^lwm_experiments: 21 runs\|^lwm_experiments: 2[0-9] runs" "$ERR" \
   && grep -q "<title>WarpSplit: 004 Fig. 8&#x27;s legends on blackjack" "$T/e4.html" \
   && grep -q "<title>LWM+2Lev WPU 0 issue: " "$T/e4.html" && grep -q '^Report page .*(e4.html)$' "$T/e4.md" \
   && grep -q "^\[21/21\] \|^\[2[0-9]/2[0-9]\] " "$ERR" \
   && [ "$(grep -c '^| blackjack | [0-9]' "$T/e4.md")" = 5 ] && [ "$(grep -c '^| aes (decrypt) | [0-9]' "$T/e4.md")" = 5 ] \
   && grep -q '^| 004 §5.1 | +7.9% | +9.9% | +19.1% |' "$T/e4.md" && grep -q '^| 2Lev.Timeout | [0-9]* | ' "$T/e4.md" \
   && grep -q 'equal Conv.s: yes' "$T/e4.md" && cmp -s "$OUT" "$T/e4.md"; then ok
else bad "lwm_experiments.py: exit $RC: $(tail -n 3 "$ERR") $(head -c 300 "$T/e4.md")"; fi
# a simulator whose LWM runs change the results must make it fail (exit 1, named)
mkdir -p "$T/e4b" && ln -sf "$PWD/$B/kernels" "$T/e4b/kernels"
printf '#!/bin/sh\n"%s" "$@" || exit $?\ncase " $* " in *" --policy LWM "*) for a; do [ "$p" = --dump ] && echo x >>"$a"; p=$a; done ;; esac\n' \
  "$PWD/$SIM" > "$T/e4b/wpusim" && chmod +x "$T/e4b/wpusim"
run e4-bad 120 python3 scripts/lwm_experiments.py --kernels aes --jobs 1 --build "$T/e4b"
if [ $RC -eq 1 ] && grep -q "^  LWM aes: results (--dump) differ from Conv's" "$OUT" && ! grep -q "2Lev aes: results" "$OUT"; then ok
else bad "lwm_experiments.py missed changed results: exit $RC: $(tail -n 3 "$OUT")"; fi
run e4-badk 30 python3 scripts/lwm_experiments.py --kernels mandel
if [ $RC -eq 2 ] && grep -q "unknown kernel 'mandel'" "$ERR"; then ok; else bad "unknown kernel: exit $RC $(cat "$ERR")"; fi
