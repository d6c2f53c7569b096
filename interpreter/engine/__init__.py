"""The engine core: compile a checked spec once, then play it resumably.

game.py compiles every rule (compile.py turns statements into flat programs
of instructions, codegen.py turns expressions into generated Python);
state.py is a game in progress and its API; flow.py the run loop whose
execution position is data in the state; functions.py the builtins;
values.py, rng.py and boards.py the data they work on; explain.py says why
an option is refused; changes.py is the observer interface and the change
records that tracing and logs read.

May import: rulespec and the standard library, networkx. Never any other
package of interpreter/ (tests/test_layout.py checks it).
"""
