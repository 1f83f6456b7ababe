# expect: none
# tensorflow: ok
# shape: @tf.function train_step from the TF2 quickstart "for experts": tf.print inside, keras metrics with argmax, tf.cast of the batch size, loss_history.append(float(loss)) outside the function
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([
    tf.keras.Input((9,)),
    tf.keras.layers.Dense(12, activation="relu"),
    tf.keras.layers.Dropout(0.1),
    tf.keras.layers.Dense(3),
])
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="sum")
optimizer = tf.keras.optimizers.Adam()
train_loss = tf.keras.metrics.Mean(name="train_loss")
train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")


@tf.function
def train_step(images, labels):
    with tf.GradientTape() as tape:
        predictions = model(images, training=True)
        batch = tf.cast(tf.shape(images)[0], tf.float32)
        loss = loss_object(labels, predictions) / batch
        tf.print("batch loss", loss, "pred class", tf.argmax(predictions, axis=1)[0])
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    train_loss(loss)
    train_accuracy(labels, predictions)
    return loss


images = np.random.rand(8, 9).astype("float32")
labels = np.random.randint(0, 3, 8).astype("int32")
loss_history = []
for epoch in range(2):
    loss_history.append(float(train_step(images, labels)))
print(loss_history, train_accuracy.result().numpy())
