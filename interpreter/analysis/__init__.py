"""Many games at once, and what they say about balance.

simulate.py plays many seeded games on a process pool or Ray and summarises
them; compare.py sets two variants side by side on the same seeds; stats.py
holds the interval and test formulas; report_html.py draws the comparison
page.

May import: interpreter.engine, interpreter.agents, interpreter.tools, rulespec.
"""
