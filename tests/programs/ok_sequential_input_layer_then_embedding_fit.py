# expect: none
# tensorflow: ok
# shape: `keras.Sequential([layers.Input((10,)), layers.Embedding(10, 4), ...])` trained with `fit` on token ids (after Keras's own tests at 3422977: keras/src/callbacks/tensorboard_test.py, test_TensorBoard_projector_callback, and keras/src/layers/rnn/time_distributed_test.py, test_with_mask_zero): `layers.Input` is no layer with weights in front of the Embedding, and the Embedding's input is data, so every variable trains
# family: 3
import numpy as np
import keras
from keras import layers

model = keras.Sequential([
    layers.Input((10,)),
    layers.Embedding(10, 4),
    layers.Flatten(),
    layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer="adam", loss="binary_crossentropy")
model.fit(np.random.randint(0, 10, size=(10, 10)), np.ones((10, 1)), batch_size=2, epochs=1, verbose=0)
