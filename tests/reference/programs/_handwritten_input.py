"""The hand-written multi-head attention tutorial's input, shared by its two
programs: a five-word vocab (id 0 = any unknown word and the padding), the
sentence lower-cased, split on spaces, cut or padded with 0 to max_len 10, then
nn.Embedding(6, 512). The tutorial sets no seed: torch.manual_seed(0) here comes
right before nn.Embedding, and the attention module is built after it with no
new seed (its parameters go on from the generator)."""
import torch
import torch.nn as nn

word_to_index = {"this": 1, "is": 2, "an": 3, "example": 4, "sentence": 5}
vocab_size = len(word_to_index) + 1  # with 0
sentence = "this is an example sentence"
max_len, embedding_dim, num_heads = 10, 512, 8


def encode(text, length):
    ids = [word_to_index.get(word, 0) for word in text.lower().split()][:length]
    return torch.tensor(ids + [0] * (length - len(ids)), dtype=torch.long)


encoded_sentence = encode(sentence, max_len)  # (10,): five words, five 0s
torch.manual_seed(0)
embedding_layer = nn.Embedding(num_embeddings=vocab_size, embedding_dim=embedding_dim)
embedded_sentence = embedding_layer(encoded_sentence)  # (10, 512)
