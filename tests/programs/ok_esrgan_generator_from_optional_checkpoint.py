# expect: none
# tensorflow: ok
# shape: TF-GAN's ESRGAN pretraining: `generator` is loaded with a TensorFlow call when a phase-1 checkpoint exists (`tf.keras.load_model`, a name that does not even exist, on a branch never taken) or built by the project's network function; `tape.gradient(gen_loss, generator.trainable_variables)` — whatever the call, `.trainable_variables` is a model's list of variables, not a tensor to watch
# source: https://github.com/tensorflow/gan/blob/master/tensorflow_gan/examples/esrgan/train_lib.py
import tensorflow as tf
import keras

PHASE_1_DONE = False


def generator_network(channels):
    return keras.Sequential([keras.Input((8, 8, 3)), keras.layers.Conv2D(channels, 3, padding="same")])


if PHASE_1_DONE:
    generator = tf.keras.load_model("phase_1/generator/")
else:
    generator = generator_network(3)
g_optimizer = keras.optimizers.Adam(1e-3)
image_lr = tf.random.uniform((2, 8, 8, 3))
image_hr = tf.random.uniform((2, 8, 8, 3))

with tf.GradientTape() as tape:
    fake = generator(image_lr)
    gen_loss = tf.reduce_mean(tf.abs(image_hr - fake))
gradient = tape.gradient(gen_loss, generator.trainable_variables)
g_optimizer.apply_gradients(zip(gradient, generator.trainable_variables))
