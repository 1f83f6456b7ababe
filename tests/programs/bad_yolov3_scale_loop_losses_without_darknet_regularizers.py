# expect: GG311@60
# tensorflow: ok
# fixed: differs
# shape: a TF2 YOLOv3 train_step: the Darknet `convolutional` helper gives every Conv2D kernel_regularizer=l2(0.0005), and the tape starts giou_loss=conf_loss=prob_loss=0, adds the three terms of compute_loss for each output scale in a loop, and differentiates total_loss = giou_loss + conf_loss + prob_loss; tf.add_n(yolo.losses) is never added, so weight decay does nothing (as the issue found: with the fix the results change)
# source: https://github.com/pythonlessons/TensorFlow-2.x-YOLOv3/issues/165
# heldout: 5
import numpy as np
import tensorflow as tf
import keras

NUM_CLASS = 2


def convolutional(input_layer, filters, kernel_size=3, bn=True):
    conv = keras.layers.Conv2D(filters, kernel_size, padding="same", use_bias=not bn,
                               kernel_regularizer=keras.regularizers.l2(0.0005),
                               kernel_initializer=keras.initializers.RandomNormal(stddev=0.01))(input_layer)
    if bn:
        conv = keras.layers.BatchNormalization()(conv)
        conv = keras.layers.LeakyReLU(0.1)(conv)
    return conv


def create_yolov3(input_size=16):
    input_layer = keras.Input([input_size, input_size, 3])
    route = convolutional(input_layer, 8)
    outputs = []
    for _ in range(3):
        route = convolutional(route, 8)
        conv = convolutional(route, 3 * (NUM_CLASS + 5), kernel_size=1, bn=False)
        outputs += [conv, keras.layers.Activation("sigmoid")(conv)]
    return keras.Model(input_layer, outputs)


def compute_loss(pred, conv, label):
    respond_bbox = label[..., 4:5]
    giou_loss = tf.reduce_mean(respond_bbox * tf.abs(label[..., :4] - pred[..., :4]))
    conf_loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=respond_bbox, logits=conv[..., 4:5]))
    prob_loss = tf.reduce_mean(respond_bbox * tf.nn.sigmoid_cross_entropy_with_logits(labels=label[..., 5:], logits=conv[..., 5:]))
    return giou_loss, conf_loss, prob_loss


yolo = create_yolov3()
optimizer = keras.optimizers.Adam(1e-3)
image_data = np.random.rand(2, 16, 16, 3).astype(np.float32)
target = [np.random.rand(2, 16, 16, 3 * (NUM_CLASS + 5)).astype(np.float32) for _ in range(3)]


def train_step(image_data, target):
    with tf.GradientTape() as tape:
        pred_result = yolo(image_data, training=True)
        giou_loss = conf_loss = prob_loss = 0
        for i in range(3):
            conv, pred = pred_result[i * 2], pred_result[i * 2 + 1]
            loss_items = compute_loss(pred, conv, target[i])
            giou_loss += loss_items[0]
            conf_loss += loss_items[1]
            prob_loss += loss_items[2]
        total_loss = giou_loss + conf_loss + prob_loss
        gradients = tape.gradient(total_loss, yolo.trainable_variables)
        optimizer.apply_gradients(zip(gradients, yolo.trainable_variables))
    return total_loss


train_step(image_data, target)
