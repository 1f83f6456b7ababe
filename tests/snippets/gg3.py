"""Snippets for GG3xx: GradientTape and optimizer misuse."""
from __future__ import annotations

from . import Invalid, Valid

SNIPPETS = [
    Invalid("GG301", "loss_after_with", '''\
import tensorflow as tf

w = tf.Variable(2.0)
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    y = w * x
loss = tf.reduce_sum(y ** 2)
grad = tape.gradient(loss, w)
'''),
    Invalid("GG301", "forward_before_tape", '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")
pred = model(x)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - pred))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Invalid("GG301", "prediction_passed_to_tape_function", '''\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])


def train_step(pred, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(y - pred))
    return tape.gradient(loss, model.trainable_variables)


x = tf.random.normal([8, 3])
grads = train_step(model(x), tf.ones([8, 1]))
'''),
    Invalid("GG301", "minimize_lambda_returns_precomputed_cost", '''\
import tensorflow as tf

w = tf.Variable([1.0, -2.0])
optimizer = tf.compat.v1.train.GradientDescentOptimizer(0.1)
cost = tf.reduce_sum(tf.square(w * 3.0))
optimizer.minimize(lambda: cost, var_list=[w])
'''),
    Valid("GG301", "minimize_lambda_computes_cost", '''\
import tensorflow as tf

w = tf.Variable([1.0, -2.0])
optimizer = tf.compat.v1.train.GradientDescentOptimizer(0.1)
optimizer.minimize(lambda: tf.reduce_sum(tf.square(w * 3.0)), var_list=[w])
'''),
    Valid("GG301", "inputs_passed_to_tape_function", '''\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])


def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(y - model(x)))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(tf.random.normal([8, 3]), tf.ones([8, 1]))
'''),
    Valid("GG301", "loss_inside_with", '''\
import tensorflow as tf

w = tf.Variable(2.0)
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    y = w * x
    loss = tf.reduce_sum(y ** 2)
grad = tape.gradient(loss, w)
'''),
    Invalid("GG302", "wrong_variable", '''\
import tensorflow as tf

w = tf.Variable(2.0)
b = tf.Variable(0.5)
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum((w * x) ** 2)
grad = tape.gradient(loss, b)
'''),
    Invalid("GG302", "target_model_vars", '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
target_model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x)))
grads = tape.gradient(loss, target_model.trainable_variables)
'''),
    Valid("GG302", "both_variables", '''\
import tensorflow as tf

w = tf.Variable(2.0)
b = tf.Variable(0.5)
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum((w * x + b) ** 2)
grads = tape.gradient(loss, [w, b])
'''),
    Invalid("GG303", "unused_bias", '''\
import tensorflow as tf


class Scale(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.scale = self.add_weight(shape=(1,), initializer="ones")
        self.offset = self.add_weight(shape=(1,), initializer="zeros")

    def call(self, inputs):
        return inputs * self.scale
'''),
    Valid("GG303", "both_weights_used", '''\
import tensorflow as tf


class Scale(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.scale = self.add_weight(shape=(1,), initializer="ones")
        self.offset = self.add_weight(shape=(1,), initializer="zeros")

    def call(self, inputs):
        return inputs * self.scale + self.offset
'''),
    Valid("GG303", "unused_sublayer_never_built", '''\
import tensorflow as tf


class Head(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(4)
        self.out = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.hidden(x)
'''),
    Invalid("GG304", "augmented_subtract", '''\
import tensorflow as tf

w = tf.Variable(2.0)
x = tf.constant([1.0, 2.0])
for step in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum((w * x) ** 2)
    dw = tape.gradient(loss, w)
    w -= 0.1 * dw
'''),
    Invalid("GG304", "rebind_in_function", '''\
import tensorflow as tf

w = tf.Variable([1.0, 2.0])


def step(x, lr=0.1):
    global w
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * x)
    w = w - lr * tape.gradient(loss, w)
'''),
    Valid("GG304", "assign_sub", '''\
import tensorflow as tf

w = tf.Variable(2.0)
x = tf.constant([1.0, 2.0])
for step in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum((w * x) ** 2)
    dw = tape.gradient(loss, w)
    w.assign_sub(0.1 * dw)
'''),
    Invalid("GG305", "assign_then_read", '''\
import tensorflow as tf

w = tf.Variable(2.0)
cache = tf.Variable([0.0, 0.0], trainable=False)
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    cache.assign(w * x)
    loss = tf.reduce_sum(cache ** 2)
grad = tape.gradient(loss, w)
'''),
    Invalid("GG305", "adapted_weights_assigned_into_second_model", '''\
import tensorflow as tf
import keras

model, fast = keras.Sequential([keras.layers.Dense(1)]), keras.Sequential([keras.layers.Dense(1)])
x = tf.ones((4, 3))
model(x), fast(x)
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        support = tf.reduce_mean(tf.square(model(x)))
    grads = inner.gradient(support, model.trainable_variables)
    for new, w, g in zip(fast.trainable_variables, model.trainable_variables, grads):
        new.assign(w - 0.01 * g)
    query = tf.reduce_mean(tf.square(fast(x)))
meta = outer.gradient(query, model.trainable_variables)
'''),
    Valid("GG305", "soft_update_then_td_target", '''\
import tensorflow as tf
import keras

q, target = keras.Sequential([keras.layers.Dense(2)]), keras.Sequential([keras.layers.Dense(2)])
s, s2 = tf.ones((4, 3)), tf.zeros((4, 3))
q(s), target(s)
for t, w in zip(target.trainable_variables, q.trainable_variables):
    t.assign(0.99 * t + 0.01 * w)
with tf.GradientTape() as tape:
    td = 1.0 + 0.9 * tf.reduce_max(target(s2), axis=1)
    loss = tf.reduce_mean(tf.square(td - tf.reduce_max(q(s), axis=1)))
grads = tape.gradient(loss, q.trainable_variables)
'''),
    Valid("GG305", "assign_after_tape", '''\
import tensorflow as tf

w = tf.Variable(2.0)
cache = tf.Variable([0.0, 0.0], trainable=False)
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    y = w * x
    loss = tf.reduce_sum(y ** 2)
grad = tape.gradient(loss, w)
cache.assign(y)
'''),
    Invalid("GG306", "input_gradient", '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
image = tf.convert_to_tensor(np.random.rand(1, 3).astype("float32"))
with tf.GradientTape() as tape:
    score = tf.reduce_sum(model(image))
saliency = tape.gradient(score, image)
'''),
    Valid("GG306", "watched_input", '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
image = tf.convert_to_tensor(np.random.rand(1, 3).astype("float32"))
with tf.GradientTape() as tape:
    tape.watch(image)
    score = tf.reduce_sum(model(image))
saliency = tape.gradient(score, image)
'''),
    Invalid("GG306", "non_trainable_variable_source", '''\
import tensorflow as tf

x = tf.Variable(3.0, trainable=False)
with tf.GradientTape() as tape:
    y = x * x
dy_dx = tape.gradient(y, x)
'''),
    Valid("GG306", "variable_source", '''\
import tensorflow as tf

x = tf.Variable([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(x ** 2)
dy_dx = tape.gradient(y, x)
'''),
    Invalid("GG307", "two_losses", '''\
import tensorflow as tf

w = tf.Variable(2.0)
b = tf.Variable(1.0)
with tf.GradientTape() as tape:
    loss_w = w ** 2
    loss_b = b ** 2
grad_w = tape.gradient(loss_w, w)
grad_b = tape.gradient(loss_b, b)
'''),
    Valid("GG307", "persistent", '''\
import tensorflow as tf

w = tf.Variable(2.0)
b = tf.Variable(1.0)
with tf.GradientTape(persistent=True) as tape:
    loss_w = w ** 2
    loss_b = b ** 2
grad_w = tape.gradient(loss_w, w)
grad_b = tape.gradient(loss_b, b)
del tape
'''),
    Invalid("GG308", "minimize_lambda", '''\
import tensorflow as tf

w = tf.Variable(3.0)
optimizer = tf.keras.optimizers.SGD(0.1)
optimizer.minimize(lambda: (w - 1.0) ** 2, var_list=[w])
'''),
    Invalid("GG308", "minimize_in_loop_positional_var_list", '''\
import tensorflow as tf

w = tf.Variable(3.0)
optimizer = tf.keras.optimizers.Adam(0.1)


def loss_fn():
    return tf.square(w - 1.0)


for _ in range(2):
    optimizer.minimize(loss_fn, [w])
'''),
    Valid("GG308", "apply_gradients", '''\
import tensorflow as tf

w = tf.Variable(3.0)
optimizer = tf.keras.optimizers.SGD(0.1)
with tf.GradientTape() as tape:
    loss = (w - 1.0) ** 2
grads = tape.gradient(loss, [w])
optimizer.apply_gradients(zip(grads, [w]))
'''),
    Invalid("GG309", "if_grads", '''\
import tensorflow as tf

w = tf.Variable(2.0)
optimizer = tf.keras.optimizers.SGD(0.1)
with tf.GradientTape() as tape:
    loss = w ** 2
grads = tape.gradient(loss, [w])
if grads:
    optimizer.apply_gradients(zip(grads, [w]))
'''),
    Invalid("GG309", "is_not_none", '''\
import tensorflow as tf

w = tf.Variable(2.0)
optimizer = tf.keras.optimizers.SGD(0.1)
with tf.GradientTape() as tape:
    loss = w ** 2
grads = tape.gradient(loss, [w])
if grads is not None:
    optimizer.apply_gradients(zip(grads, [w]))
'''),
    Invalid("GG309", "len_positive", '''\
import tensorflow as tf

w = tf.Variable(2.0)
optimizer = tf.keras.optimizers.SGD(0.1)
with tf.GradientTape() as tape:
    loss = w ** 2
grads = tape.gradient(loss, [w])
if len(grads) > 0:
    optimizer.apply_gradients(zip(grads, [w]))
'''),
    Valid("GG309", "all_not_none", '''\
import tensorflow as tf

w = tf.Variable(2.0)
optimizer = tf.keras.optimizers.SGD(0.1)
with tf.GradientTape() as tape:
    loss = w ** 2
grads = tape.gradient(loss, [w])
if all(g is not None for g in grads):
    optimizer.apply_gradients(zip(grads, [w]))
'''),
    Invalid("GG310", "layer_with_dense_sublayer", '''\
import tensorflow as tf
import keras


class Projection(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(4)

    @tf.function(reduce_retracing=True)
    def call(self, x):
        return self.dense(x)
'''),
    Valid("GG310", "own_add_weight_only", '''\
import tensorflow as tf
import keras


class Projection(keras.layers.Layer):
    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], 4))

    @tf.function
    def call(self, x):
        return tf.matmul(x, self.kernel)
'''),
    Valid("GG310", "tf_keras_trains_a_traced_call", '''\
import tensorflow as tf
import tf_keras as keras


class Projection(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(4)

    @tf.function
    def call(self, x):
        return self.dense(x)
'''),
    Valid("GG310", "weightless_sublayer_traced_for_export", '''\
import tensorflow as tf
import keras


class Identity(keras.layers.Layer):
    def __call__(self, inputs):
        return inputs

class Exported(keras.Model):
    def __init__(self):
        super().__init__()
        self.layer = Identity()
    @tf.function(input_signature=[tf.TensorSpec([None, 1])])
    def call(self, inputs):
        return self.layer(inputs)
'''),
    Invalid("GG302", "batchnorm_model_variables", '''\
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4), keras.layers.BatchNormalization()])
x = tf.ones((2, 3))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(model(x, training=True))
grads = tape.gradient(loss, model.variables)
'''),
    Invalid("GG302", "unused_head_of_two_output_model", '''\
import tensorflow as tf
import keras

inputs = keras.Input((4,))
action = keras.layers.Dense(2)(inputs)
critic = keras.layers.Dense(1)(inputs)
model = keras.Model(inputs, [action, critic])
with tf.GradientTape() as tape:
    probs, value = model(tf.ones((2, 4)))
    loss = tf.reduce_mean(probs)
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Invalid("GG302", "subclassed_model_sublayer_output_unused", '''\
import tensorflow as tf
import keras

class TwoHeads(keras.Model):
    def __init__(self):
        super().__init__()
        self.policy, self.value = keras.layers.Dense(2), keras.layers.Dense(1)
    def call(self, x):
        return self.policy(x), self.value(x)

model = TwoHeads()
with tf.GradientTape() as tape:
    logits, _ = model(tf.ones((2, 4)))
    loss = tf.reduce_mean(logits)
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Valid("GG302", "subclassed_model_both_outputs_used", '''\
import tensorflow as tf
import keras

class TwoHeads(keras.Model):
    def __init__(self):
        super().__init__()
        self.policy, self.value = keras.layers.Dense(2), keras.layers.Dense(1)
    def call(self, x):
        return self.policy(x), self.value(x)

model = TwoHeads()
with tf.GradientTape() as tape:
    logits, value = model(tf.ones((2, 4)))
    loss = tf.reduce_mean(logits) + tf.reduce_mean(tf.square(value))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Invalid("GG305", "metric_object_as_loss", '''\
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
mse = keras.metrics.MeanSquaredError()
x, y = tf.ones((2, 3)), tf.zeros((2, 1))
with tf.GradientTape() as tape:
    loss = mse(y, model(x))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Valid("GG305", "metric_object_for_logging", '''\
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
mean_loss = keras.metrics.Mean()
x, y = tf.ones((2, 3)), tf.zeros((2, 1))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - model(x)))
grads = tape.gradient(loss, model.trainable_variables)
mean_loss(loss)
'''),
    Invalid("GG306", "model_as_sources", '''\
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(model(tf.ones((2, 3))))
grads = tape.gradient(loss, model)
'''),
    Invalid("GG306", "trainable_integer_weight", '''\
import tensorflow as tf
import keras


class Steps(keras.layers.Layer):
    def build(self, input_shape):
        self.scale = self.add_weight(shape=(), initializer="ones", dtype="int32")

    def call(self, x):
        return x * tf.cast(self.scale, x.dtype)
'''),
    Valid("GG306", "integer_counter_not_trainable", '''\
import tensorflow as tf
import keras


class Steps(keras.layers.Layer):
    def build(self, input_shape):
        self.count = self.add_weight(shape=(), initializer="zeros", dtype="int32", trainable=False)

    def call(self, x):
        self.count.assign_add(1)
        return x
'''),
    Invalid("GG312", "watch_model_inputs", '''\
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(2)])
x = tf.random.normal((3, 4))
with tf.GradientTape() as tape:
    tape.watch(model.inputs)
    loss = tf.reduce_sum(model(x))
grads = tape.gradient(loss, x)
'''),
    Invalid("GG312", "gradient_of_layer_output", '''\
import tensorflow as tf
import keras

inputs = keras.Input(shape=(4,))
features = keras.layers.Dense(8, name="features")(inputs)
model = keras.Model(inputs, keras.layers.Dense(2)(features))
with tf.GradientTape() as tape:
    score = tf.reduce_sum(model(tf.random.normal((3, 4))))
grads = tape.gradient(score, model.get_layer("features").output)
'''),
    Valid("GG312", "grad_cam_model_returning_the_layer_output", '''\
import tensorflow as tf
import keras

inputs = keras.Input(shape=(4,))
features = keras.layers.Dense(8, name="features")(inputs)
model = keras.Model(inputs, keras.layers.Dense(2)(features))
grad_model = keras.Model(model.inputs, [model.get_layer("features").output, model.output])
with tf.GradientTape() as tape:
    maps, scores = grad_model(tf.random.normal((3, 4)))
    score = tf.reduce_sum(scores[:, 0])
grads = tape.gradient(score, maps)
'''),
    Valid("GG312", "new_head_on_a_base_models_output", '''\
import tensorflow as tf
import keras

base = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(8)])
model = keras.Model(base.input, keras.layers.Dense(1)(base.output))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(model(tf.random.normal((3, 4))))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Invalid("GG313", "zero_loss_for_a_batch_without_pairs", '''\
import tensorflow as tf


def train(model, optimizer, batches):
    for x, same in batches:
        with tf.GradientTape() as tape:
            distances = tf.norm(model(x)[0] - model(x)[1:], axis=1)
            if tf.reduce_any(same):
                loss = tf.reduce_mean(tf.boolean_mask(distances, same))
            else:
                loss = 0.0
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
'''),
    Valid("GG313", "traced_step_differentiates_both_branches", '''\
import tensorflow as tf


@tf.function
def train_step(model, optimizer, x, mask):
    with tf.GradientTape() as tape:
        picked = tf.boolean_mask(model(x), mask)
        if tf.size(picked) > 0:
            loss = tf.reduce_mean(picked)
        else:
            loss = tf.constant(0.0)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
'''),
    Valid("GG313", "constant_branch_skips_the_update", '''\
import tensorflow as tf


def train(model, optimizer, batches):
    for x, mask in batches:
        with tf.GradientTape() as tape:
            picked = tf.boolean_mask(model(x), mask)
            if tf.size(picked) > 0:
                loss = tf.reduce_mean(picked)
            else:
                continue
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
'''),
    Invalid("GG313", "helper_falls_back_for_one_head", '''\
import tensorflow as tf
import keras

trunk, classes, boxes = keras.layers.Dense(8), keras.layers.Dense(3), keras.layers.Dense(4)

def box_loss(deltas, positive):
    picked = tf.boolean_mask(deltas, positive)
    return tf.reduce_mean(tf.abs(picked)) if tf.size(picked) > 0 else tf.constant(0.0)

def step(x, labels, positive):
    with tf.GradientTape() as tape:
        h = trunk(x)
        loss = tf.reduce_mean(tf.square(classes(h) - labels)) + box_loss(boxes(h), positive)
    return tape.gradient(loss, trunk.trainable_variables + boxes.trainable_variables)
'''),
    Invalid("GG311", "train_step_loss_without_self_losses", '''\
import tensorflow as tf
import keras


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(8, kernel_regularizer="l2")
        self.head = keras.layers.Dense(1)

    def train_step(self, data):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(data[1] - self.head(self.hidden(data[0]))))
        self.optimizer.apply_gradients(zip(tape.gradient(loss, self.trainable_variables), self.trainable_variables))
'''),
    Invalid("GG311", "functional_activity_regularizer", '''\
import tensorflow as tf
import keras

inputs = keras.Input(shape=(4,))
codes = keras.layers.Dense(2, activity_regularizer=keras.regularizers.l1(1e-3))(inputs)
autoencoder = keras.Model(inputs, keras.layers.Dense(4)(codes))
x = tf.random.normal((8, 4))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(x - autoencoder(x)))
grads = tape.gradient(loss, autoencoder.trainable_variables)
'''),
    Valid("GG311", "train_step_with_compute_loss", '''\
import tensorflow as tf
import keras


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(8, kernel_regularizer="l2")

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            loss = self.compute_loss(x=x, y=y, y_pred=self.hidden(x))
        self.optimizer.apply_gradients(zip(tape.gradient(loss, self.trainable_variables), self.trainable_variables))
'''),
    Valid("GG311", "regularizer_none_is_no_regularizer", '''\
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1, kernel_regularizer=None)])
x = tf.random.normal((8, 4))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x)))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Invalid("GG314", "lambda_grad_for_a_function_reading_a_weight", '''\
import tensorflow as tf

w = tf.Variable(3.0)


@tf.custom_gradient
def clipped_scale(x):
    return x * w, lambda dy: tf.clip_by_value(dy, -1.0, 1.0) * w


with tf.GradientTape() as tape:
    loss = clipped_scale(tf.constant(2.0))
grads = tape.gradient(loss, [w])
'''),
    Valid("GG314", "straight_through_round_reads_no_variable", '''\
import tensorflow as tf

w = tf.Variable(0.7)


@tf.custom_gradient
def round_ste(x):
    return tf.round(x), lambda dy: dy


with tf.GradientTape() as tape:
    loss = round_ste(w * 3.0)
grads = tape.gradient(loss, [w])
'''),
    Valid("GG314", "grad_returns_the_variables_gradients", '''\
import tensorflow as tf

w = tf.Variable(3.0)


@tf.custom_gradient
def scaled(x):
    def grad(dy, variables=None):
        return dy * w, [tf.reduce_sum(dy * x) for _ in variables]

    return x * w, grad
'''),
    Invalid("GG315", "lambda_grad_returns_none_for_a_layer_output", '''\
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(1)])

@tf.custom_gradient
def quantize(x):
    return tf.round(x * 4.0) / 4.0, lambda dy: None

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(quantize(model(tf.ones((2, 3)))))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Valid("GG315", "lambda_grad_passes_dy_straight_through", '''\
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(1)])

@tf.custom_gradient
def quantize(x):
    return tf.round(x * 4.0) / 4.0, lambda dy: dy

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(quantize(model(tf.ones((2, 3)))))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Valid("GG315", "grad_returns_none_only_for_a_constant_argument", '''\
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(1)])

@tf.custom_gradient
def tempered(x, temperature):
    def grad(dy):
        return dy / temperature, None
    return x / temperature, grad

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tempered(model(tf.ones((2, 3))), 2.0))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Invalid("GG303", "local_kernel_normalised_once_in_build", '''\
import tensorflow as tf
import keras


class UnitNormDense(keras.layers.Layer):
    def build(self, input_shape):
        kernel = self.add_weight(shape=(input_shape[-1], 4), initializer="glorot_uniform")
        norm = tf.sqrt(tf.reduce_sum(tf.square(kernel), axis=0))
        self.kernel = kernel / norm

    def call(self, inputs):
        return tf.matmul(inputs, self.kernel)
'''),
    Valid("GG303", "local_weight_stored_on_self", '''\
import tensorflow as tf
import keras


class UnitNormDense(keras.layers.Layer):
    def build(self, input_shape):
        kernel = self.add_weight(shape=(input_shape[-1], 4), initializer="glorot_uniform")
        self.kernel = kernel

    def call(self, inputs):
        return tf.matmul(inputs, self.kernel / tf.norm(self.kernel, axis=0))
'''),
    Invalid("GG313", "early_return_of_a_constant_in_a_helper", '''\
import tensorflow as tf
import keras

net = keras.layers.Dense(2)

def masked_loss(scores, mask):
    if not tf.reduce_any(mask):
        return tf.constant(0.0)
    return tf.reduce_mean(tf.boolean_mask(scores, mask))

def step(x, mask):
    with tf.GradientTape() as tape:
        loss = masked_loss(net(x), mask)
    return tape.gradient(loss, net.trainable_variables)
'''),
    Valid("GG313", "fallback_terms_summed_over_a_loop", '''\
import tensorflow as tf
import keras

net = keras.layers.Dense(2)

def step(batches):
    with tf.GradientTape() as tape:
        total = 0.0
        for x, mask in batches:
            picked = tf.boolean_mask(net(x), mask)
            total += tf.reduce_mean(picked) if tf.size(picked) > 0 else 0.0
    return tape.gradient(total, net.trainable_variables)
'''),
]
