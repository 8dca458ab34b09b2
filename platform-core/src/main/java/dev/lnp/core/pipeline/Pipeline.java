package dev.lnp.core.pipeline;

import java.util.List;

/**
 * An ordered list of {@link PipelineStep}s, outermost first, assembled once (per route, or once for tool calls)
 * and run for every call.
 */
public final class Pipeline<C> {

    private final List<PipelineStep<? super C>> steps;

    public Pipeline(List<PipelineStep<? super C>> steps) {
        this.steps = List.copyOf(steps);
    }

    public void run(C call) {
        step(0, call);
    }

    private void step(int index, C call) {
        if (index < steps.size()) {
            steps.get(index).apply(call, () -> step(index + 1, call));
        }
    }

    /** The steps' names in the order they run. */
    public List<String> names() {
        return steps.stream().map(PipelineStep::name).toList();
    }
}
