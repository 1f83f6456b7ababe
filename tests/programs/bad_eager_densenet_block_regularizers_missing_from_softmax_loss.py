# expect: GG311@49
# tensorflow: ok
# fixed: differs
# shape: an eager DenseNet-style example: the convolution blocks are custom keras.Model subclasses whose Conv2D layers carry kernel_regularizer=l2(weight_decay), and the eager training step differentiates only the softmax cross-entropy of the logits; the L2 penalties sit in model.losses and never reach the loss, so weight decay has no effect (every gradient exists, none includes the penalty)
# source: https://github.com/tensorflow/tensorflow/issues/21237
# heldout: 5
import numpy as np
import tensorflow as tf
import keras

WEIGHT_DECAY = 1e-4


class ConvBlock(keras.Model):
    def __init__(self, growth_rate):
        super().__init__()
        self.norm = keras.layers.LayerNormalization()
        self.conv = keras.layers.Conv2D(growth_rate, 3, padding="same", use_bias=False,
                                        kernel_regularizer=keras.regularizers.l2(WEIGHT_DECAY))

    def call(self, x, training=False):
        return tf.concat([x, self.conv(tf.nn.relu(self.norm(x)))], axis=-1)


class DenseNet(keras.Model):
    def __init__(self, num_classes, growth_rate=4, num_layers=2):
        super().__init__()
        self.stem = keras.layers.Conv2D(8, 3, padding="same", use_bias=False,
                                        kernel_regularizer=keras.regularizers.l2(WEIGHT_DECAY))
        self.blocks = [ConvBlock(growth_rate) for _ in range(num_layers)]
        self.pool = keras.layers.GlobalAveragePooling2D()
        self.classifier = keras.layers.Dense(num_classes, kernel_regularizer=keras.regularizers.l2(WEIGHT_DECAY))

    def call(self, x, training=False):
        x = self.stem(x)
        for block in self.blocks:
            x = block(x, training=training)
        return self.classifier(self.pool(x))


model = DenseNet(num_classes=10)
optimizer = keras.optimizers.SGD(0.01, momentum=0.9)
images = np.random.rand(4, 8, 8, 3).astype(np.float32)
labels = np.eye(10, dtype=np.float32)[np.random.randint(0, 10, size=4)]

with tf.GradientTape() as tape:
    logits = model(images, training=True)
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
