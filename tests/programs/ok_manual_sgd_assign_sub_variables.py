# expect: none
# tensorflow: ok
# shape: linear regression from scratch: tf.Variable created outside the tape, w.assign_sub(lr * dw) manual SGD, float(loss) for logging (after the TF "basic training loops" guide)
import numpy as np
import tensorflow as tf

TRUE_W, TRUE_B = 3.0, 2.0
x = tf.random.normal(shape=[8])
y = x * TRUE_W + TRUE_B + tf.random.normal(shape=[8]) * 0.1


class MyModel(tf.Module):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)

    def __call__(self, x):
        return self.w * x + self.b


def loss(target_y, predicted_y):
    return tf.reduce_mean(tf.square(target_y - predicted_y))


def train(model, x, y, learning_rate):
    with tf.GradientTape() as t:
        current_loss = loss(y, model(x))
    dw, db = t.gradient(current_loss, [model.w, model.b])
    model.w.assign_sub(learning_rate * dw)
    model.b.assign_sub(learning_rate * db)
    return current_loss


model = MyModel()
weights = []
for epoch in range(2):
    current_loss = train(model, x, y, learning_rate=0.1)
    weights.append((model.w.numpy(), model.b.numpy()))
    print("Epoch %2d: W=%1.2f b=%1.2f, loss=%2.5f" % (epoch, model.w.numpy(), model.b.numpy(), float(current_loss)))
print(np.array(weights).shape)
