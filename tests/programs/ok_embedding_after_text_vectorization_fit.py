# expect: none
# tensorflow: ok
# shape: an `Embedding` after weightless preprocessing (`Input(dtype=string)`, `TextVectorization`) in a Sequential trained with `fit`: nothing before the Embedding has weights, every trainable variable gets its gradient (issue 22, point 6; tensorflow/addons tensorflow_addons/optimizers/tests/moving_average_test.py at d208d75 drew a false GG403 on this shape)
import tensorflow as tf
import keras

vectorize = keras.layers.TextVectorization(max_tokens=20, output_mode="int", output_sequence_length=4)
vectorize.adapt(["foo bar", "bar baz", "baz qux"])
model = keras.Sequential([
    keras.Input(shape=(1,), dtype=tf.string),
    vectorize,
    keras.layers.Embedding(21, 4),
    keras.layers.GlobalAveragePooling1D(),
    keras.layers.Dense(1),
])
model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
model.fit(tf.constant([["foo bar"], ["baz qux"]]), tf.constant([[1.0], [0.0]]), epochs=1, verbose=0)
