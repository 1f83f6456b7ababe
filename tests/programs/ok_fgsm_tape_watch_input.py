# expect: none
# tensorflow: ok
# shape: FGSM adversarial training: tape.watch(x) on a constant input, gradient w.r.t. x, tf.sign on that gradient, then a normal training step on x_adv (after the TF FGSM tutorial)
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(3)])
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam(1e-3)

images = tf.constant(np.random.rand(8, 8), dtype=tf.float32)
labels = tf.constant(np.random.randint(0, 3, size=8))


def create_adversarial_pattern(input_image, input_label):
    with tf.GradientTape() as tape:
        tape.watch(input_image)
        prediction = model(input_image)
        loss = loss_object(input_label, prediction)
    gradient = tape.gradient(loss, input_image)
    return tf.sign(gradient)


perturbations = create_adversarial_pattern(images, labels)
adv_images = tf.clip_by_value(images + 0.1 * perturbations, 0.0, 1.0)

with tf.GradientTape() as tape:
    loss = loss_object(labels, model(images)) + loss_object(labels, model(adv_images))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print(loss.numpy())
