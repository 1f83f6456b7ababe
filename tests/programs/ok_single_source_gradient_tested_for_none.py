# expect: none
# tensorflow: ok
# shape: `g = tape.gradient(loss, w)` for one variable is one tensor or None, so `if g is None:` tests it; and `for g, v in zip(grads, variables): if g is None` tests each gradient of a list (issue 22, point 5; issue 21's table)
import tensorflow as tf

w = tf.Variable(1.0)
v = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
    loss = w * w + v
g = tape.gradient(loss, w)
if g is None:
    raise SystemExit("no gradient for w")
grads = tape.gradient(loss, [w, v])
del tape
for grad, variable in zip(grads, [w, v]):
    if grad is None:
        raise SystemExit(f"no gradient for {variable.name}")
w.assign_sub(0.1 * g)
