# expect: GG311@33
# tensorflow: ok
# fixed: nofix
# shape: weight decay added to an already built functional model by assigning layer.kernel_regularizer = l2(...) to every Conv2D/Dense afterwards; the training loop does add tf.reduce_sum(model.losses) to the loss, but a regularizer assigned after the layer built its kernel is never registered, model.losses stays [] and the sum is the constant 0.0, so training runs without any weight decay (the thread's `assert model_b.losses == []`; the segmentation repo removed the dead term after it)
# source: https://github.com/tensorflow/tensorflow/issues/33635
# heldout: 5
# gap: GG311 stays silent as soon as the file reads `.losses`; here it does, but model.losses is [] because the regularizers were assigned as layer attributes after the layers had built their kernels (Keras registers a regularizer only when add_weight creates the weight), and gradguard neither counts an assigned regularizer as declared nor knows the sum is an empty constant
import numpy as np
import tensorflow as tf
import keras

input_layer = keras.Input(shape=(8, 8, 3))
x = keras.layers.Conv2D(8, 3, padding="same", activation="relu")(input_layer)
x = keras.layers.Conv2D(8, 3, padding="same", activation="relu")(x)
x = keras.layers.GlobalAveragePooling2D()(x)
output_layer = keras.layers.Dense(2)(x)
model = keras.Model(inputs=[input_layer], outputs=[output_layer])

for layer in model.layers:
    if isinstance(layer, (keras.layers.Conv2D, keras.layers.Dense)):
        layer.kernel_regularizer = keras.regularizers.l2(1e-2)

loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = keras.optimizers.Adam(1e-3)
images = np.random.rand(4, 8, 8, 3).astype(np.float32)
labels = np.random.randint(0, 2, size=(4,))

with tf.GradientTape() as tape:
    logits = model(images, training=True)
    cross_entropy = loss_fn(labels, logits)
    regularization_loss = tf.reduce_sum(model.losses)
    loss = cross_entropy + regularization_loss
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
