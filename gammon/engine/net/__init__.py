"""The evaluator: the neural nets (inputs, forward pass, weights, evaluation cache) and the
evaluator interface with its probabilities."""
