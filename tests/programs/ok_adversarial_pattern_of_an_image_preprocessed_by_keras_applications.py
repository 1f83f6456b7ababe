# expect: none
# tensorflow: ok
# shape: FGSM: the image is prepared by a helper that calls `tf.keras.applications.mobilenet_v2.preprocess_input` (a function, not a model) and handed to `create_adversarial_pattern`, which watches it and differentiates the loss with respect to it (after the TensorFlow tutorial adversarial_fgsm)
import tensorflow as tf

pretrained_model = tf.keras.Sequential([
    tf.keras.Input((32, 32, 3)),
    tf.keras.layers.Conv2D(4, 3, activation="relu"),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(10, activation="softmax"),
])
pretrained_model.trainable = False
loss_object = tf.keras.losses.CategoricalCrossentropy()


def preprocess(image):
    image = tf.cast(image, tf.float32)
    image = tf.image.resize(image, (32, 32))
    image = tf.keras.applications.mobilenet_v2.preprocess_input(image)
    return image[None, ...]


def create_adversarial_pattern(input_image, input_label):
    with tf.GradientTape() as tape:
        tape.watch(input_image)
        prediction = pretrained_model(input_image)
        loss = loss_object(input_label, prediction)
    gradient = tape.gradient(loss, input_image)
    return tf.sign(gradient)


image = preprocess(tf.random.uniform((40, 40, 3), maxval=255.0))
label = tf.reshape(tf.one_hot(3, 10), (1, 10))
perturbations = create_adversarial_pattern(image, label)
