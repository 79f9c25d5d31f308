# Cross-attention: the queries come from one sequence (the decoder's), the
# keys and values from another (the encoder's).
import torch
import torch.nn as nn

from _fixture import save


class CrossAttention(nn.Module):
    def __init__(self, d_in, d_out_kq, d_out_v):
        super().__init__()
        self.d_out_kq = d_out_kq
        self.W_query = nn.Parameter(torch.rand(d_in, d_out_kq))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out_kq))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out_v))

    def forward(self, x_1, x_2):
        queries_1 = x_1 @ self.W_query
        keys_2 = x_2 @ self.W_key  # keys and values from the second input
        values_2 = x_2 @ self.W_value
        attn_scores = queries_1 @ keys_2.T  # (len(x_1), len(x_2))
        attn_weights = torch.softmax(attn_scores / self.d_out_kq ** 0.5, dim=-1)
        context_vec = attn_weights @ values_2
        self.trace = dict(queries_1=queries_1, keys_2=keys_2, values_2=values_2, attn_scores=attn_scores,
                          attn_weights=attn_weights)  # kept for the fixture
        return context_vec


decoder_sentence = "I am a student"  # the queries
encoder_sentence = "je suis étudiant"  # the keys and values
vocab = {}
for word in decoder_sentence.split() + encoder_sentence.split():
    if word not in vocab:
        vocab[word] = len(vocab)
ids_1 = torch.tensor([vocab[word] for word in decoder_sentence.split()])
ids_2 = torch.tensor([vocab[word] for word in encoder_sentence.split()])

torch.manual_seed(123)
embedding = nn.Embedding(len(vocab), 4)
first_input = embedding(ids_1).detach()  # (4, 4)
second_input = embedding(ids_2).detach()  # (3, 4)

torch.manual_seed(123)
crossattn = CrossAttention(d_in=4, d_out_kq=4, d_out_v=4)
context_vectors = crossattn(first_input, second_input)
print(context_vectors)
print("Output shape:", context_vectors.shape)

save({"ids_1": ids_1, "ids_2": ids_2, "first_input": first_input, "second_input": second_input,
      **crossattn.state_dict(), **crossattn.trace, "context_vectors": context_vectors})
