# expect: GG311@39
# tensorflow: ok
# fixed: differs
# shape: a YOLO-style detector whose Conv2D layers carry kernel_regularizer=l2(0.0005), trained with a GradientTape on total_loss = giou_loss + conf_loss + prob_loss only: the L2 penalties in model.losses never reach the loss, so every gradient exists but none includes weight decay (setting kernel_regularizer=None gives the same loss, as the poster found)
# source: https://github.com/hunglc007/tensorflow-yolov4-tflite/issues/369
# heldout: 4
import numpy as np
import tensorflow as tf
import keras


def convolutional(x, filters, kernel_size=3):
    return keras.layers.Conv2D(
        filters, kernel_size, padding="same", use_bias=False,
        kernel_regularizer=keras.regularizers.l2(0.0005),
        kernel_initializer=keras.initializers.RandomNormal(stddev=0.01),
    )(x)


input_layer = keras.Input(shape=(8, 8, 3))
conv = keras.layers.LeakyReLU(0.1)(convolutional(input_layer, 8))
conv = keras.layers.LeakyReLU(0.1)(convolutional(conv, 8))
output = convolutional(conv, 4 + 1 + 2, kernel_size=1)
model = keras.Model(input_layer, output)
optimizer = keras.optimizers.Adam(1e-3)

images = np.random.rand(2, 8, 8, 3).astype(np.float32)
boxes = np.random.rand(2, 8, 8, 4).astype(np.float32)
objectness = (np.random.rand(2, 8, 8, 1) > 0.7).astype(np.float32)
classes = np.eye(2, dtype=np.float32)[np.random.randint(0, 2, size=(2, 8, 8))]

with tf.GradientTape() as tape:
    pred = model(images, training=True)
    pred_xywh, pred_conf, pred_prob = pred[..., :4], pred[..., 4:5], pred[..., 5:]
    giou_loss = tf.reduce_mean(objectness * tf.reduce_sum(tf.abs(boxes - pred_xywh), axis=-1, keepdims=True))
    conf_loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=objectness, logits=pred_conf))
    prob_loss = tf.reduce_mean(objectness * tf.nn.sigmoid_cross_entropy_with_logits(labels=classes, logits=pred_prob))
    total_loss = giou_loss + conf_loss + prob_loss
gradients = tape.gradient(total_loss, model.trainable_variables)
optimizer.apply_gradients(zip(gradients, model.trainable_variables))
