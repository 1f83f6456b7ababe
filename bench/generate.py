"""Deterministic, realistic TensorFlow training files for the benchmark (stdlib only).

A file is a module of many pieces, as a research repository or an exported notebook has them:

* the TensorFlow-verified programs of tests/programs listed in bench/inputs.txt (`bad_*` lose a
  gradient, `ok_*` are tricky correct code; pinned, so a new corpus program moves nothing), each either wrapped into a function (its body indented) or left at module level
  as a notebook cell;
* templates with randomised names, sizes and hyper-parameters: `keras.Sequential` factories with
  `compile`/`fit`, subclassed `keras.Model`s with a custom `train_step`, custom losses, DQN agents
  with a replay buffer, GAN training steps, `tf.data` input pipelines, and notebook-style
  module-level training loops. Most templates have a correct variant and one that breaks the
  gradient in a way gradguard reports.

Everything depends on the seed only, so two runs benchmark the same bytes.

    python bench/generate.py OUT_DIR [--quick]     # writes the benchmark's files, prints a summary
"""
from __future__ import annotations

import ast
import random
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PINNED = ROOT / "bench" / "inputs.txt"  # which corpus programs the pieces come from (see there)


def _pinned_programs() -> list[Path]:
    names = [line.strip() for line in PINNED.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    paths = [ROOT / "tests" / "programs" / name for name in names]
    if missing := [p.name for p in paths if not p.exists()]:
        sys.exit(f"bench/inputs.txt names {len(missing)} corpus programs that no longer exist "
                 f"({', '.join(missing[:3])}...): re-pin the inputs")
    return sorted(paths)


PROGRAMS = _pinned_programs()
HEADER_IMPORTS = ("import numpy as np", "import tensorflow as tf", "from tensorflow import keras")

WORDS = ("policy", "value", "critic", "encoder", "decoder", "q", "target", "reward", "pixel", "token",
         "audio", "vision", "ranker", "tabular", "forecast", "sentiment", "anomaly", "style", "depth",
         "graph", "click", "churn", "price", "speech", "pose", "segment", "mask", "latent", "prior")


@dataclass
class Piece:
    text: str
    breaks: bool          # expected to lose a gradient (a bad_* program or a bad template variant)
    function: str | None  # the name of a function in it whose body an editor can type into


# ---------------------------------------------------------------------------------------------
# The corpus


def _program_body(path: Path) -> str:
    lines = path.read_text(encoding="utf-8").splitlines()
    while lines and lines[0].startswith("#"):
        lines.pop(0)   # the test header (# expect: ...), not part of the program
    body = [line for line in lines if line.strip() not in HEADER_IMPORTS]
    return "\n".join(body).strip("\n") + "\n"


def corpus_piece(rng: random.Random, index: int, breaks: bool) -> Piece:
    pool = [p for p in PROGRAMS if p.name.startswith("bad_" if breaks else "ok_")]
    path = rng.choice(pool)
    body = _program_body(path)
    if rng.random() < 0.2:   # a notebook cell at module level
        return Piece(f"\n\n# %% {path.stem.split('_', 1)[1].replace('_', ' ')}\n{body}", breaks, None)
    name = f"run_{path.stem.split('_', 1)[1]}_{index}"
    doc = f'    """{path.stem.split("_", 1)[1].replace("_", " ").capitalize()}."""\n'
    return Piece(f"\n\ndef {name}():\n{doc}{textwrap.indent(body, '    ')}", breaks, name)


# ---------------------------------------------------------------------------------------------
# Templates: each returns (text, name of a function to type into). `bad` picks the broken variant.


def t_sequential(rng: random.Random, n: int, bad: bool) -> tuple[str, str]:
    w, d, h, c = rng.choice(WORDS), rng.randint(4, 64), rng.choice((32, 64, 128, 256)), rng.randint(2, 10)
    lr, p = rng.choice(("1e-3", "3e-4", "1e-4")), rng.choice((0.1, 0.2, 0.3))
    e, b = rng.randint(2, 20), rng.choice((16, 32, 64))
    return f'''

def build_{w}_classifier_{n}(input_dim={d}, hidden={h}, num_classes={c}):
    """A small MLP classifier for the {w} features."""
    model = keras.Sequential([
        keras.Input(shape=(input_dim,)),
        keras.layers.Dense(hidden, activation="relu"),
        keras.layers.Dropout({p}),
        keras.layers.Dense(hidden // 2, activation="relu"),
        keras.layers.BatchNormalization(),
        keras.layers.Dense(num_classes),
    ])
    model.compile(
        optimizer=keras.optimizers.Adam(learning_rate={lr}),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    return model


def fit_{w}_classifier_{n}(epochs={e}, batch_size={b}, seed={n}):
    rng = np.random.default_rng(seed)
    features = rng.random((512, {d}), dtype=np.float32)
    labels = rng.integers(0, {c}, size=(512,))
    model = build_{w}_classifier_{n}()
    callbacks = [keras.callbacks.EarlyStopping(monitor="val_loss", patience=3, restore_best_weights=True)]
    history = model.fit(features, labels, epochs=epochs, batch_size=batch_size,
                        validation_split=0.2, callbacks=callbacks, verbose=0)
    best = min(history.history["val_loss"])
    print(f"{w}: best val_loss={{best:.4f}} after {{len(history.history['loss'])}} epochs")
    return model, best
''', f"fit_{w}_classifier_{n}"


def t_subclassed(rng: random.Random, n: int, bad: bool) -> tuple[str, str]:
    w, u = rng.choice(WORDS).capitalize(), rng.choice((16, 32, 64, 128))
    prediction = "self(x, training=True).numpy()" if bad else "self(x, training=True)"
    return f'''

class {w}Regressor{n}(keras.Model):
    """Regression head with a hand-written training step."""

    def __init__(self, units={u}, dropout=0.1, **kwargs):
        super().__init__(**kwargs)
        self.hidden = keras.layers.Dense(units, activation="relu")
        self.norm = keras.layers.LayerNormalization()
        self.dropout = keras.layers.Dropout(dropout)
        self.head = keras.layers.Dense(1)
        self.loss_tracker = keras.metrics.Mean(name="loss")
        self.mae_tracker = keras.metrics.MeanAbsoluteError(name="mae")

    @property
    def metrics(self):
        return [self.loss_tracker, self.mae_tracker]

    def call(self, inputs, training=False):
        x = self.hidden(inputs)
        x = self.norm(x, training=training)
        x = self.dropout(x, training=training)
        return self.head(x)

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = {prediction}
            residual = y - y_pred
            loss = tf.reduce_mean(tf.square(residual)) + 0.01 * tf.add_n([tf.nn.l2_loss(v) for v in self.trainable_weights])
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        self.mae_tracker.update_state(y, y_pred)
        return {{m.name: m.result() for m in self.metrics}}

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        self.loss_tracker.update_state(tf.reduce_mean(tf.square(y - y_pred)))
        self.mae_tracker.update_state(y, y_pred)
        return {{m.name: m.result() for m in self.metrics}}
''', "train_step"


def t_custom_loss(rng: random.Random, n: int, bad: bool) -> tuple[str, str]:
    w, delta = rng.choice(WORDS), rng.choice((0.5, 1.0, 2.0))
    error = "tf.round(y_pred) - y_true" if bad else "y_pred - y_true"
    return f'''

def {w}_huber_loss_{n}(y_true, y_pred, delta={delta}):
    """Huber loss with a per-sample weight on large targets."""
    y_true = tf.cast(y_true, y_pred.dtype)
    error = {error}
    small = tf.abs(error) <= delta
    squared = 0.5 * tf.square(error)
    linear = delta * (tf.abs(error) - 0.5 * delta)
    weights = 1.0 + tf.cast(tf.abs(y_true) > 1.0, y_pred.dtype)
    return tf.reduce_mean(weights * tf.where(small, squared, linear))


def train_{w}_with_huber_{n}(epochs=3):
    model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(32, activation="relu"), keras.layers.Dense(1)])
    optimizer = keras.optimizers.Adam(1e-3)
    x = np.random.rand(64, 8).astype(np.float32)
    y = np.random.rand(64, 1).astype(np.float32)
    for epoch in range(epochs):
        with tf.GradientTape() as tape:
            loss = {w}_huber_loss_{n}(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        print(epoch, float(loss))
    return model
''', f"train_{w}_with_huber_{n}"


def t_dqn(rng: random.Random, n: int, bad: bool) -> tuple[str, str]:
    s, a, g = rng.randint(2, 12), rng.randint(2, 6), rng.choice((0.9, 0.95, 0.99))
    q_values = "self.model.predict(states, verbose=0)" if bad else "self.model(states, training=True)"
    return f'''

class ReplayBuffer{n}:
    def __init__(self, capacity=10_000, seed={n}):
        self.capacity = capacity
        self.storage = []
        self.position = 0
        self.rng = np.random.default_rng(seed)

    def add(self, state, action, reward, next_state, done):
        item = (state, action, reward, next_state, done)
        if len(self.storage) < self.capacity:
            self.storage.append(item)
        else:
            self.storage[self.position] = item
        self.position = (self.position + 1) % self.capacity

    def sample(self, batch_size):
        indices = self.rng.integers(0, len(self.storage), size=batch_size)
        states, actions, rewards, next_states, dones = zip(*(self.storage[i] for i in indices))
        return (np.array(states, dtype=np.float32), np.array(actions), np.array(rewards, dtype=np.float32),
                np.array(next_states, dtype=np.float32), np.array(dones, dtype=np.float32))


class DQNAgent{n}:
    def __init__(self, state_size={s}, action_size={a}, gamma={g}, epsilon=1.0):
        self.state_size = state_size
        self.action_size = action_size
        self.gamma = gamma
        self.epsilon = epsilon
        self.epsilon_min = 0.01
        self.epsilon_decay = 0.995
        self.memory = ReplayBuffer{n}()
        self.model = self._build_model()
        self.target_model = self._build_model()
        self.target_model.set_weights(self.model.get_weights())
        self.optimizer = keras.optimizers.Adam(learning_rate=1e-3)
        self.loss_fn = keras.losses.Huber()

    def _build_model(self):
        return keras.Sequential([
            keras.Input(shape=(self.state_size,)),
            keras.layers.Dense(64, activation="relu"),
            keras.layers.Dense(64, activation="relu"),
            keras.layers.Dense(self.action_size, activation="linear"),
        ])

    def act(self, state):
        if np.random.rand() <= self.epsilon:
            return np.random.randint(self.action_size)
        q = self.model(state[None, :], training=False)
        return int(tf.argmax(q[0]).numpy())

    def replay(self, batch_size=32):
        if len(self.memory.storage) < batch_size:
            return None
        states, actions, rewards, next_states, dones = self.memory.sample(batch_size)
        next_q = self.target_model(next_states, training=False)
        targets = rewards + self.gamma * tf.reduce_max(next_q, axis=1) * (1.0 - dones)
        masks = tf.one_hot(actions, self.action_size)
        with tf.GradientTape() as tape:
            q_values = {q_values}
            q_action = tf.reduce_sum(q_values * masks, axis=1)
            loss = self.loss_fn(targets, q_action)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        if self.epsilon > self.epsilon_min:
            self.epsilon *= self.epsilon_decay
        return float(loss)

    def update_target(self, tau=0.05):
        for target, online in zip(self.target_model.weights, self.model.weights):
            target.assign(tau * online + (1.0 - tau) * target)
''', "replay"


def t_gan(rng: random.Random, n: int, bad: bool) -> tuple[str, str]:
    z, d = rng.choice((8, 16, 32, 64)), rng.choice((16, 28, 64))
    if bad:   # the fake batch is generated before the tapes open (GG301)
        before, inside = "    generated = generator(noise, training=True)\n", ""
    else:
        before, inside = "", "        generated = generator(noise, training=True)\n"
    return f'''

def make_gan_{n}(latent_dim={z}, data_dim={d}):
    generator = keras.Sequential([
        keras.Input(shape=(latent_dim,)),
        keras.layers.Dense(128), keras.layers.LeakyReLU(0.2),
        keras.layers.Dense(data_dim, activation="tanh"),
    ], name="generator_{n}")
    discriminator = keras.Sequential([
        keras.Input(shape=(data_dim,)),
        keras.layers.Dense(128), keras.layers.LeakyReLU(0.2),
        keras.layers.Dense(1),
    ], name="discriminator_{n}")
    return generator, discriminator


cross_entropy_{n} = keras.losses.BinaryCrossentropy(from_logits=True)


@tf.function
def gan_train_step_{n}(real, generator, discriminator, g_opt, d_opt, latent_dim={z}):
    noise = tf.random.normal([tf.shape(real)[0], latent_dim])
{before}    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
{inside}        real_logits = discriminator(real, training=True)
        fake_logits = discriminator(generated, training=True)
        gen_loss = cross_entropy_{n}(tf.ones_like(fake_logits), fake_logits)
        disc_loss = (cross_entropy_{n}(tf.ones_like(real_logits), real_logits)
                     + cross_entropy_{n}(tf.zeros_like(fake_logits), fake_logits))
    gen_grads = gen_tape.gradient(gen_loss, generator.trainable_variables)
    disc_grads = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
    g_opt.apply_gradients(zip(gen_grads, generator.trainable_variables))
    d_opt.apply_gradients(zip(disc_grads, discriminator.trainable_variables))
    return gen_loss, disc_loss
''', f"gan_train_step_{n}"


def t_pipeline(rng: random.Random, n: int, bad: bool) -> tuple[str, str]:
    w, b, s = rng.choice(WORDS), rng.choice((32, 64, 128)), rng.randint(100, 5000)
    return f'''

def {w}_dataset_{n}(features, labels, batch_size={b}, shuffle={s}, augment=True):
    """Input pipeline: shuffle, light augmentation, batching and prefetch."""
    dataset = tf.data.Dataset.from_tensor_slices((features, labels))
    dataset = dataset.shuffle(shuffle, seed={n}, reshuffle_each_iteration=True)
    if augment:
        dataset = dataset.map(lambda x, y: (x + tf.random.normal(tf.shape(x), stddev=0.01), y),
                              num_parallel_calls=tf.data.AUTOTUNE)
    return dataset.batch(batch_size, drop_remainder=True).prefetch(tf.data.AUTOTUNE)


def summarise_{w}_{n}(history, keys=("loss", "val_loss")):
    rows = []
    for key in keys:
        values = np.asarray(history.get(key, []), dtype=np.float64)
        if values.size == 0:
            continue
        rows.append((key, float(values.min()), int(values.argmin()), float(values[-1])))
    for key, best, epoch, last in rows:
        print(f"{{key:>10}}: best {{best:.4f}} at epoch {{epoch}}, last {{last:.4f}}")
    return rows
''', f"summarise_{w}_{n}"


def t_notebook(rng: random.Random, n: int, bad: bool) -> tuple[str, None]:
    d, e, steps = rng.randint(3, 32), rng.randint(2, 10), rng.randint(4, 50)
    prediction = "nb_model_{n}(xb, training=True).numpy()" if bad else "nb_model_{n}(xb, training=True)"
    return f'''

# %% training loop {n}
nb_model_{n} = keras.Sequential([keras.Input(shape=({d},)), keras.layers.Dense(32, activation="relu"), keras.layers.Dense(1)])
nb_optimizer_{n} = keras.optimizers.SGD(learning_rate=0.01, momentum=0.9)
nb_loss_fn_{n} = keras.losses.MeanSquaredError()
nb_losses_{n} = []
for epoch in range({e}):
    for step in range({steps}):
        xb = np.random.rand(32, {d}).astype(np.float32)
        yb = np.random.rand(32, 1).astype(np.float32)
        with tf.GradientTape() as tape:
            pred = {prediction.format(n=n)}
            loss = nb_loss_fn_{n}(yb, pred)
        grads = tape.gradient(loss, nb_model_{n}.trainable_variables)
        nb_optimizer_{n}.apply_gradients(zip(grads, nb_model_{n}.trainable_variables))
        nb_losses_{n}.append(float(loss))
    print(f"epoch {{epoch}}: mean loss {{np.mean(nb_losses_{n}[-{steps}:]):.4f}}")
''', None


TEMPLATES = (t_sequential, t_subclassed, t_custom_loss, t_dqn, t_gan, t_pipeline, t_notebook)
BREAKABLE = {t_subclassed, t_custom_loss, t_dqn, t_gan, t_notebook}


# ---------------------------------------------------------------------------------------------
# Files


def training_file(lines: int, seed: int, break_rate: float = 0.3) -> tuple[str, int]:
    """A module of about `lines` lines; returns (text, number of pieces expected to break)."""
    rng = random.Random(seed)
    head = (f'"""Training code for experiment {seed}: models, losses, agents and training loops."""\n'
            "from __future__ import annotations\n\nimport os\n\n" + "\n".join(HEADER_IMPORTS) + "\n\n"
            f"SEED = {seed}\nLOG_DIR = os.environ.get(\"LOG_DIR\", \"logs/{seed}\")\n"
            "tf.random.set_seed(SEED)\nnp.random.seed(SEED)\n")
    parts, count, breaks, index = [head], head.count("\n"), 0, 0
    while count < lines:
        bad = rng.random() < break_rate
        if rng.random() < 0.4:
            piece = corpus_piece(rng, index, bad)
        else:
            template = rng.choice(TEMPLATES)
            text, function = template(rng, index, bad and template in BREAKABLE)
            piece = Piece(text, bad and template in BREAKABLE, function)
        if count + piece.text.count("\n") > lines * 1.03 and count > lines * 0.9:
            break
        parts.append(piece.text)
        count += piece.text.count("\n")
        breaks += piece.breaks
        index += 1
    text = "".join(parts)
    ast.parse(text)   # every generated file is valid Python
    return text, breaks


def typing_spot(text: str, like: str | None = None) -> tuple[int, int, str]:
    """Where an editor types: (line, column) just after the name an assignment binds, in the body of
    the function nearest the middle of the file. Extending that identifier keeps the file valid.
    `like`: a function of another file; the spot is then in this file's function of the same piece
    (the same text but for its number, `run_..._18` and `run_..._63`), if it has one."""
    tree = ast.parse(text)
    middle = text.count("\n") // 2
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if like is not None:
        functions = [f for f in functions if _piece_of(f.name) == _piece_of(like)]
        if not functions:
            raise ValueError(f"no function of the piece of {like} in the file")
    for function in sorted(functions, key=lambda f: abs(f.lineno - middle)):
        for statement in function.body:
            if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                    and isinstance(statement.targets[0], ast.Name)):
                target = statement.targets[0]
                return target.lineno - 1, target.end_col_offset, function.name
    raise ValueError("no function with a simple assignment in the file")


def _piece_of(name: str) -> str:
    """A generated function's name without its number: the piece it was made from."""
    stem, _, number = name.rpartition("_")
    return stem if number.isdigit() else name


SIZES = (300, 1_000, 5_000, 20_000)
QUICK_SIZES = (300, 1_000)


def generate(out: Path, quick: bool = False) -> dict:
    """Write every benchmark input under `out` (rewritten each time: cheap and deterministic)."""
    out.mkdir(parents=True, exist_ok=True)
    files = {}
    for size in QUICK_SIZES if quick else SIZES:
        text, breaks = training_file(size, seed=size)
        path = out / f"train_{size}.py"
        _write(path, text)
        files[size] = {"path": path, "lines": text.count("\n"), "breaks": breaks}
    folder = out / "folder"
    folder.mkdir(exist_ok=True)
    count = 20 if quick else 200
    folder_lines = folder_breaks = 0
    for stale in folder.glob("*.py"):
        if int(stale.stem.rsplit("_", 1)[1]) >= count:
            stale.unlink()
    for i in range(count):
        # half of the files are correct code only, half have a few breaks
        text, breaks = training_file(300, seed=100_000 + i, break_rate=0.0 if i % 2 else 0.35)
        _write(folder / f"module_{i:03d}.py", text)
        folder_lines += text.count("\n")
        folder_breaks += breaks
    docs = out / "documents"
    docs.mkdir(exist_ok=True)
    doc_count = 10 if quick else 50
    for stale in docs.glob("*.py"):
        if int(stale.stem.rsplit("_", 1)[1]) >= doc_count:
            stale.unlink()
    for i in range(doc_count):
        text, _ = training_file(1_000, seed=200_000 + i)
        _write(docs / f"document_{i:02d}.py", text)
    return {"files": files, "folder": {"path": folder, "files": count, "lines": folder_lines,
                                       "breaks": folder_breaks},
            "documents": sorted(docs.glob("*.py"))}


def _write(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    made = generate(Path(sys.argv[1]), quick="--quick" in sys.argv)
    for info in made["files"].values():
        print(f"{info['path']}: {info['lines']} lines, {info['breaks']} pieces that break a gradient")
    folder = made["folder"]
    print(f"{folder['path']}: {folder['files']} files, {folder['lines']} lines, {folder['breaks']} breaking pieces")
    print(f"{len(made['documents'])} documents of ~1,000 lines for the server-memory test")
