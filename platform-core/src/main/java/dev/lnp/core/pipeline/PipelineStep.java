package dev.lnp.core.pipeline;

/**
 * One named step of a request pipeline. A step does its part and calls {@code rest.proceed()} to run the steps
 * after it; a step that wraps them (a transaction, a quota given back on failure, an audit row) does so around
 * that call. A step ends the call early by throwing an {@code ApiProblem}, or by not proceeding (an idempotent
 * replay).
 *
 * @param <C> what one call carries through the pipeline (filled in as the steps run)
 */
public interface PipelineStep<C> {

    /** The step's name as the docs and {@code Pipeline#names()} list it, e.g. {@code quota}. */
    String name();

    void apply(C call, Rest rest);

    /** The steps after this one. */
    @FunctionalInterface
    interface Rest {
        void proceed();
    }
}
