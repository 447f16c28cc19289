using Microsoft.Extensions.Logging;
using Notifications.Consumer.Settling;
using Notifications.Consumer.Telemetry;
using Polly;
using Polly.Retry;
using RabbitMQ.Client;

namespace Notifications.Consumer.Pipeline;

/// <summary>
/// Puts an envelope's unfinished items back into the work queue as one message at the tail, then acks the envelope:
/// up to <see cref="Tries"/> tries a second apart while the channel is open (a Polly retry, built once per channel).
/// Each failed try is logged (4017). False when the items did not go back: the caller requeues the envelope whole.
/// </summary>
internal sealed class EnvelopeReturn
{
    public const int Tries = 5;
    internal static readonly ResiliencePropertyKey<ulong> DeliveryTag = new("notifications.envelope.delivery-tag");
    internal static readonly ResiliencePropertyKey<int> Items = new("notifications.envelope.items");
    private static readonly ResiliencePropertyKey<int> FailedTries = new("notifications.envelope.failed-tries");
    private readonly IChannel _channel;
    private readonly OutboundPublisher _outbound;
    private readonly AckBatcher _acks;
    private readonly ILogger _logger;
    private readonly ResiliencePipeline _retry;

    public EnvelopeReturn(IChannel channel, OutboundPublisher outbound, AckBatcher acks, TimeProvider time, ILogger logger)
    {
        _channel = channel;
        _outbound = outbound;
        _acks = acks;
        _logger = logger;
        _retry = Retry(time, logger);
    }

    /// <summary>Every failure but out-of-memory is tried again, a second later, <see cref="Tries"/> tries in all.</summary>
    internal static ResiliencePipeline Retry(TimeProvider time, ILogger logger) =>
        new ResiliencePipelineBuilder { Name = "envelope-return", TimeProvider = time }
            .AddRetry(new RetryStrategyOptions
            {
                MaxRetryAttempts = Tries - 1,
                BackoffType = DelayBackoffType.Constant,
                Delay = TimeSpan.FromSeconds(1),
                UseJitter = false,
                ShouldHandle = args => ValueTask.FromResult(args.Outcome.Exception is { } ex and not OutOfMemoryException),
                OnRetry = args =>
                {
                    args.Context.Properties.Set(FailedTries, args.AttemptNumber + 1);
                    Log(logger, args.Context, args.AttemptNumber + 1, args.Outcome.Exception!);
                    return ValueTask.CompletedTask;
                },
            })
            .Build();

    public async Task<bool> TryAsync(ulong deliveryTag, long generation, IReadOnlyList<Delivery> back, IDictionary<string, object?>? headers)
    {
        var context = ResilienceContextPool.Shared.Get(CancellationToken.None);
        context.Properties.Set(DeliveryTag, deliveryTag);
        context.Properties.Set(Items, back.Count);
        try
        {
            return await _retry.ExecuteAsync(
                static async (_, state) =>
                {
                    // A closed channel's deliveries go back on their own: nothing is put back beside them.
                    if (!state.Self._channel.IsOpen)
                    {
                        return false;
                    }

                    await state.Self._outbound.ReturnAsync(state.Back, state.Headers, CancellationToken.None);
                    await state.Self._acks.AckAsync(state.DeliveryTag, state.Generation);
                    return true;
                },
                context,
                (Self: this, Back: back, Headers: headers, DeliveryTag: deliveryTag, Generation: generation));
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // The last try's failure: the earlier ones were logged as they were retried.
            Log(_logger, context, context.Properties.GetValue(FailedTries, 0) + 1, ex);
            return false;
        }
        finally
        {
            ResilienceContextPool.Shared.Return(context);
        }
    }

    private static void Log(ILogger logger, ResilienceContext context, int attempt, Exception ex) =>
        ConsumerLog.EnvelopeReturnFailed(logger, context.Properties.GetValue(DeliveryTag, 0UL), context.Properties.GetValue(Items, 0), attempt, ex);
}
