"""TensorFlow as the oracle for gradguard's claims, at scale.

* `generator`: small TF2/Keras programs nobody wrote, one situation in many phrasings, each a
  random choice from every dimension (how the trainable things are held, how values flow, where
  the tape is and how it is asked, and zero or one break). TensorFlow-free.
* `claims`: what gradguard's findings claim about a program, in terms TensorFlow can check.
  TensorFlow-free.
* `runner`: runs the programs with TensorFlow (many per process), labels them by what it did,
  and compares every claim with that label; prints a table per dimension value and per rule.
* `shrink`: delta-debugs a disagreement down to the smallest program that still disagrees.

The label is always what TensorFlow does, never what the generator meant: a program generated
"with a break" whose gradients all arrive is a correct program.
"""
