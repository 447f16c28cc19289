using System.Threading.Channels;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Data;
using Notifications.Shared.Data.FanOut;
using Notifications.Shared.Hosting;
using Notifications.Shared.Observability;
using RabbitMQ.Client;

namespace Notifications.Producer.FanOut;

/// <summary>
/// Audience rows of one page (a subscriber) fanned out by the claim that took them (<see cref="FanOutOptions.InClaim"/>;
/// docs/fan-out.md). The job's page is written in the claim's transaction, so its delivery ids are committed with the claim;
/// after the commit the claiming lane publishes the deliveries with confirms and goes on to its next claim, while the jobs
/// end behind it (<see cref="RunEndingsAsync"/>: what the lanes published meanwhile ends in one transaction). That is the
/// stage's lease and page transactions and its wake saved, and the jobs' commit is off the lane's path. A claimer that dies
/// before its jobs ended leaves them leased: when the lease runs out the stage resumes each at its page, under the same ids,
/// as it does a killed producer's topic.
/// </summary>
internal sealed class InClaimFanOut(
    IFanOutStore store, IOptions<FanOutOptions> options, IOptions<ProducerOptions> producerOptions, FaultInjector faults, ILogger<InClaimFanOut> logger)
{
    private readonly FanOutOptions _options = options.Value;
    private readonly ProducerOptions _producer = producerOptions.Value;
    private readonly string _owner = LeaseOwner.New("claim");
    private readonly Channel<(FanOutJob Job, FanOutPage Page)> _published =
        Channel.CreateUnbounded<(FanOutJob Job, FanOutPage Page)>(new UnboundedChannelOptions { SingleReader = true });

    /// <summary>
    /// In the claim's transaction, after its jobs were written: leases the subscribers' jobs (at most
    /// <see cref="FanOutOptions.InClaim"/>) and writes each one's page. The jobs taken, with their pages (a
    /// <see cref="FanOutPage.Finished"/> one ended there: no such subscriber); the others are the stage's.
    /// </summary>
    public async Task<List<(FanOutJob Job, FanOutPage Page)>> WriteAsync(
        OutboxClaim claim, IReadOnlyList<FanOutJob> jobs, CancellationToken cancellationToken)
    {
        var taken = new List<(FanOutJob Job, FanOutPage Page)>();
        foreach (var job in jobs.Where(j => j.IsSubscriber).Take(_options.InClaim))
        {
            if (await store.WritePageInClaimAsync(claim, job, _owner, _options.LeaseTime, _options.PageSize, cancellationToken) is { } page)
            {
                taken.Add((job, page));
            }
        }

        return taken;
    }

    /// <summary>
    /// After the claim committed: publishes the pages of <paramref name="taken"/> on <paramref name="channel"/> with confirms
    /// and hands their jobs to <see cref="RunEndingsAsync"/>. A failure is logged, not thrown: the claim is committed, and the
    /// stage resumes the jobs when their lease runs out (bounded by the publish timeout, not by shutdown: a page begun is finished).
    /// </summary>
    public async Task PublishAsync(BatchPublisher publisher, IChannel channel, List<(FanOutJob Job, FanOutPage Page)> taken)
    {
        var pages = taken.Where(t => !t.Page.Finished).ToList();
        if (pages.Count == 0)
        {
            return;
        }

        try
        {
            faults.Reached("after-claim-fan-out");
            using var timeout = new CancellationTokenSource(_producer.PublishTimeout);
            var rows = pages.SelectMany(p => FanOutDeliveries.Rows(p.Job, p.Page.Deliveries).Select(row => (p.Job, Row: row))).ToList();
            var rejects = await publisher.PublishAsync(channel, rows.ConvertAll(r => r.Row), batch: null, timeout.Token);
            foreach (var (row, reason) in rejects)
            {
                FanOutLog.DeliveryRejected(logger, rows.First(r => r.Row.Id == row.Id).Job.Id, row.Id, reason);
            }

            pages.ForEach(p => _published.Writer.TryWrite(p));
        }
        catch (Exception ex)
        {
            // Only a failure of its own: shutdown does not cancel a page begun (the timeout does).
            LogFailed(ex);
        }
    }

    /// <summary>
    /// Ends the jobs whose pages the lanes published, all that are waiting in one transaction, until <see cref="CompleteEndings"/>
    /// and the last of them are ended. Not cancelled by shutdown: a published page's job is ended (each transaction bounded by
    /// the publish timeout); one that could not be is resumed by the stage when its lease runs out.
    /// </summary>
    public async Task RunEndingsAsync()
    {
        var reader = _published.Reader;
        while (await reader.WaitToReadAsync())
        {
            var pages = new List<(FanOutJob Job, FanOutPage Page)>();
            while (reader.TryRead(out var page))
            {
                pages.Add(page);
            }

            try
            {
                using var timeout = new CancellationTokenSource(_producer.PublishTimeout);
                var advanced = await store.AdvanceAsync(pages, _owner, _options.LeaseTime, timeout.Token);
                for (int i = 0; i < pages.Count; i++)
                {
                    LogEnd(pages[i], advanced[i]);
                }
            }
            catch (Exception ex)
            {
                LogFailed(ex);
            }
        }
    }

    /// <summary>No more pages come (the lanes stopped): <see cref="RunEndingsAsync"/> ends what is left and returns.</summary>
    public void CompleteEndings() => _published.Writer.TryComplete();

    private void LogFailed(Exception ex)
    {
        if (ConnectionFailure.IsExpected(ex))
        {
            FanOutLog.PageFailedUnreachable(logger, ConnectionFailure.Describe(ex), _options.LeaseTime);
        }
        else
        {
            FanOutLog.PageFailed(logger, _options.LeaseTime, ex);
        }
    }

    private void LogEnd((FanOutJob Job, FanOutPage Page) page, bool advanced)
    {
        if (advanced)
        {
            FanOutLog.Ended(logger, page.Job.Id, 1, page.Page.Deliveries.Count);
        }
        else
        {
            FanOutLog.LeaseLost(logger, page.Job.Id);
        }
    }
}
