# expect: GG402@36
# tensorflow: none
# fixed: nofix
# shape: adversarial segmentation: the generator's two-class mask goes through Lambda(lambda x: K.cast(K.expand_dims(K.argmax(x, axis=-1), axis=-1), 'float32')) into the discriminator; the generator step (GradientTape) gets None for every generator weight
# source: https://github.com/eriklindernoren/Keras-GAN/issues/61
# family: 3
import numpy as np
import tensorflow as tf
import keras
from keras import ops as K

h, w, c = 8, 8, 3

seg_net = keras.Sequential([
    keras.Input(shape=(h, w, c)),
    keras.layers.Conv2D(4, 3, padding="same", activation="relu"),
    keras.layers.Conv2D(2, 1, activation="softmax"),
])
discriminator = keras.Sequential([
    keras.Input(shape=(h, w, 1)),
    keras.layers.Conv2D(4, 3, activation="relu"),
    keras.layers.GlobalAveragePooling2D(),
    keras.layers.Dense(1, activation="sigmoid"),
])

image = keras.Input(shape=(h, w, c))
out1 = seg_net(image)
out2 = keras.layers.Lambda(lambda x: K.cast(K.expand_dims(K.argmax(x, axis=-1), axis=-1), dtype="float32"), output_shape=(h, w, 1))(out1)
validity = discriminator(out2)
combined = keras.Model(image, validity)

optimizer = keras.optimizers.Adam(2e-4)
images = np.random.rand(4, h, w, c).astype(np.float32)

with tf.GradientTape() as tape:
    val = combined(images, training=True)
    g_loss = keras.losses.binary_crossentropy(tf.ones_like(val), val)
grads = tape.gradient(g_loss, seg_net.trainable_variables)
optimizer.apply_gradients(zip(grads, seg_net.trainable_variables))
