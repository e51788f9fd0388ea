"""The interpreters behind the transforms: forward, reverse, batching, graph."""
from .forward import JVPInterpreter, JVPTracer
from .reverse import ReverseInterpreter, ReverseTracer, backward_pass
from .batching import BatchInterpreter, BatchTracer
from .graph import Graph, GraphInterpreter, GraphTracer, eval_graph, trace_to_graph
