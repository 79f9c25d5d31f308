# Additive (Bahdanau) attention, as Dive into Deep Learning writes it: the
# score of a query and a key is w_vᵀ tanh(W_q q + W_k k), and the values are
# the keys (the encoder's states). Decoder queries, encoder keys and values.
import torch
import torch.nn as nn

from _fixture import save


def masked_softmax(X, valid_lens):
    """Perform softmax operation by masking elements on the last axis."""
    # X: 3D tensor, valid_lens: 1D or 2D tensor
    def _sequence_mask(X, valid_len, value=0):
        maxlen = X.size(1)
        mask = torch.arange((maxlen), dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
        X[~mask] = value
        return X

    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    else:
        shape = X.shape
        if valid_lens.dim() == 1:
            valid_lens = torch.repeat_interleave(valid_lens, shape[1])
        else:
            valid_lens = valid_lens.reshape(-1)
        # On the last axis, replace masked elements with a very large negative
        # value, whose exponentiation outputs 0
        X = _sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
        return nn.functional.softmax(X.reshape(shape), dim=-1)


class AdditiveAttention(nn.Module):
    """Additive attention."""

    def __init__(self, num_hiddens, dropout, **kwargs):
        super(AdditiveAttention, self).__init__(**kwargs)
        self.W_k = nn.LazyLinear(num_hiddens, bias=False)
        self.W_q = nn.LazyLinear(num_hiddens, bias=False)
        self.w_v = nn.LazyLinear(1, bias=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens):
        queries, keys = self.W_q(queries), self.W_k(keys)
        # After dimension expansion, shape of queries: (batch_size, no. of
        # queries, 1, num_hiddens) and shape of keys: (batch_size, 1, no. of
        # key-value pairs, num_hiddens). Sum them up with broadcasting
        features = queries.unsqueeze(2) + keys.unsqueeze(1)
        features = torch.tanh(features)
        # There is only one output of self.w_v, so we remove the last
        # one-dimensional entry from the shape. Shape of scores: (batch_size,
        # no. of queries, no. of key-value pairs)
        scores = self.w_v(features).squeeze(-1)
        self.attention_weights = masked_softmax(scores, valid_lens)
        self.trace = dict(scores=scores)  # kept for the fixture
        # Shape of values: (batch_size, no. of key-value pairs, value dimension)
        return torch.bmm(self.dropout(self.attention_weights), values)


decoder_sentence = "I love you"  # the queries: the decoder's states
encoder_sentence = "ich liebe dich"  # the keys and values: the encoder's states
vocab = {}
for word in decoder_sentence.split() + encoder_sentence.split():
    if word not in vocab:
        vocab[word] = len(vocab)
decoder_ids = torch.tensor([[vocab[word] for word in decoder_sentence.split()]])
encoder_ids = torch.tensor([[vocab[word] for word in encoder_sentence.split()]])

torch.manual_seed(0)
embedding = nn.Embedding(len(vocab), 4)
queries = embedding(decoder_ids).detach()  # (batch_size, no. of queries, 4)
keys = embedding(encoder_ids).detach()  # (batch_size, no. of key-value pairs, 4)
values = keys

attention = AdditiveAttention(num_hiddens=8, dropout=0.1)
attention.eval()  # no dropout
context = attention(queries, keys, values, None)  # the lazy layers are drawn here: W_q, W_k, w_v
print(attention.attention_weights)
print(context)

# The engine shows the scores, not W_q(queries), W_k(keys) or the tanh features: those stay unsaved.
save({"decoder_ids": decoder_ids, "encoder_ids": encoder_ids, "queries": queries, "keys": keys,
      "W_q.weight": attention.W_q.weight, "W_k.weight": attention.W_k.weight, "w_v.weight": attention.w_v.weight,
      "scores": attention.trace["scores"], "attention_weights": attention.attention_weights, "context": context})
