using Microsoft.Extensions.Logging;
using Notifications.Consumer.Pipeline;
using Notifications.UnitTests.Resilience;
using Polly;

namespace Notifications.UnitTests.Consumer;

/// <summary>The Polly retry that puts an envelope's unfinished items back: five tries a second apart, each failure logged.</summary>
public sealed class EnvelopeReturnRetryTests
{
    private readonly TimerRecordingTime _time = new();
    private readonly RecordingLogger _logger = new();
    private readonly ResilienceContext _context = ResilienceContextPool.Shared.Get(CancellationToken.None);

    public EnvelopeReturnRetryTests()
    {
        _context.Properties.Set(EnvelopeReturn.DeliveryTag, 42UL);
        _context.Properties.Set(EnvelopeReturn.Items, 3);
    }

    [Fact]
    public async Task Retry_ReturnKeepsFailing_FiveTriesASecondApartThenTheLastFailureIsThrown()
    {
        var retry = EnvelopeReturn.Retry(_time, _logger);
        int calls = 0;

        var returned = retry.ExecuteAsync<bool, int>((_, _) => { calls++; throw new IOException("broker connection lost"); }, _context, 0).AsTask();
        var pauses = await _time.FireAsync(4);

        await Assert.ThrowsAsync<IOException>(() => returned);
        Assert.Equal(EnvelopeReturn.Tries, calls);
        Assert.All(pauses, p => Assert.Equal(TimeSpan.FromSeconds(1), p));
        Assert.True(_time.NoNewTimer);
        Assert.Equal([1, 2, 3, 4], _logger.Records.Select(r => (int)r.Values["Attempt"]!));
        Assert.All(_logger.Records, r =>
        {
            Assert.Equal((LogLevel.Warning, 4017), (r.Level, r.EventId));
            Assert.Equal((42UL, 3), ((ulong)r.Values["DeliveryTag"]!, (int)r.Values["Items"]!));
        });
    }

    [Fact]
    public async Task Retry_SecondTrySucceeds_OneFailureLoggedAndNoMorePauses()
    {
        var retry = EnvelopeReturn.Retry(_time, _logger);
        int calls = 0;

        var returned = retry.ExecuteAsync((_, _) => ++calls == 1 ? throw new IOException("publish failed") : ValueTask.FromResult(true), _context, 0).AsTask();
        await _time.FireNextAsync();

        Assert.True(await returned);
        Assert.Equal(2, calls);
        Assert.Single(_logger.Records);
        Assert.True(_time.NoNewTimer);
    }

    [Fact]
    public async Task Retry_OutOfMemory_NotRetriedNorLogged()
    {
        var retry = EnvelopeReturn.Retry(_time, _logger);
        int calls = 0;

        await Assert.ThrowsAsync<OutOfMemoryException>(() =>
            retry.ExecuteAsync<bool, int>((_, _) => { calls++; throw new OutOfMemoryException(); }, _context, 0).AsTask());

        Assert.Equal(1, calls);
        Assert.Empty(_logger.Records);
        Assert.True(_time.NoNewTimer);
    }
}
