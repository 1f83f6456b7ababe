# expect: none
# tensorflow: ok
# shape: a helper `embed_and_sum(x)` builds an Embedding (and a Lambda sum) on the input it is given, called with `Input(...)` tensors of a functional memory network; the Input has nothing to train, so nothing before the Embedding loses a gradient (after lazyprogrammer/machine_learning_examples, nlp_class3/memory_network.py)
import numpy as np
from keras.layers import Input, Embedding, Lambda, Dense, Reshape, dot
from keras.models import Model
from keras import ops

vocab_size, embedding_dim, sents, maxlen, qlen = 20, 4, 3, 5, 5


def embed_and_sum(x, axis=2):
    x = Embedding(vocab_size, embedding_dim)(x)
    x = Lambda(lambda x: ops.sum(x, axis))(x)
    return x


input_story_ = Input((sents, maxlen))
input_question_ = Input((qlen,))
embedded_story = embed_and_sum(input_story_)
embedded_question = embed_and_sum(input_question_, 1)
dense_layer = Dense(embedding_dim, activation="elu")


def hop(query, story):
    x = Reshape((1, embedding_dim))(query)
    x = dot([story, x], 2)
    x = Reshape((sents,))(x)
    story_weights = Reshape((sents, 1))(x)
    story_embedding2 = embed_and_sum(input_story_)
    x = dot([story_weights, story_embedding2], 1)
    x = Reshape((embedding_dim,))(x)
    x = dense_layer(x)
    return x, story_embedding2, story_weights


ans1, embedded_story, story_weights1 = hop(embedded_question, embedded_story)
ans2, _, story_weights2 = hop(ans1, embedded_story)
ans = Dense(vocab_size, activation="softmax")(ans2)
model2 = Model([input_story_, input_question_], ans)
model2.compile(optimizer="rmsprop", loss="sparse_categorical_crossentropy")
model2.fit([np.random.randint(0, vocab_size, (8, sents, maxlen)), np.random.randint(0, vocab_size, (8, qlen))],
           np.random.randint(0, vocab_size, (8,)), epochs=1, verbose=0)
