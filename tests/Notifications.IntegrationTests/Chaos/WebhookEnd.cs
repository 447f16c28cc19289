using System.Globalization;
using System.Net;
using System.Security.Cryptography;
using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// The webhook rows' receiving end: a <see cref="WebhookReceiver"/> on plain HTTP on loopback, registered as the endpoint
/// <see cref="EndpointName"/> (private addresses allowed, as <c>scripts/admin webhooks add … --allow-private</c> does) with
/// a secret of its own. A notification counts as received when a request carrying its id passed the receiver's signature
/// check and was answered 2xx — at once or late (<see cref="Slow"/>: the receiver took it, the answer came after the
/// consumer's timeout). A request that failed the check is a violation.
/// </summary>
internal sealed class WebhookEnd : IReceivingEnd, IAsyncDisposable
{
    public const string EndpointName = "chaos";

    private readonly WebhookReceiver _receiver;

    private WebhookEnd(WebhookReceiver receiver, string secret)
    {
        _receiver = receiver;
        Secret = secret;
    }

    /// <summary>The endpoint's signing secret, which the receiver checks every request against.</summary>
    public string Secret { get; }

    public string Name => "webhook receiver";

    /// <summary>The registered URL (plain HTTP on loopback; the same port after a restart).</summary>
    public Uri Url => _receiver.PlainUrl!;

    /// <summary>Requests the receiver answered late (each may have timed out at the consumer, its outcome unknown there).</summary>
    public int LateAnswers => _receiver.Deliveries.Count(d => d.AnswerDelay is not null);

    public static async Task<WebhookEnd> StartAsync()
    {
        string secret = "whsec_" + Convert.ToBase64String(RandomNumberGenerator.GetBytes(32));
        return new WebhookEnd(await WebhookReceiver.StartAsync([secret], plainHttp: true), secret);
    }

    /// <summary>Registers (or re-registers) the endpoint with this receiver's URL and secret, enabled.</summary>
    public async Task RegisterAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"""
            INSERT INTO {TestDatabase.Schema}.webhook_endpoint (name, url, secret, allow_private) VALUES (@EndpointName, @Url, @Secret, true)
            ON CONFLICT (name) DO UPDATE SET url = excluded.url, secret = excluded.secret, previous_secret = NULL, previous_secret_until = NULL,
                allow_private = true, disabled_at = NULL, disabled_reason = NULL, changed_at = clock_timestamp()
            """, new { EndpointName, Url = Url.ToString(), Secret });
    }

    /// <summary>Commits <paramref name="count"/> webhook rows to the endpoint in one statement; returns their ids.</summary>
    public static async Task<IReadOnlyList<long>> InsertAsync(int count)
    {
        await using var connection = await TestDatabase.OpenAsync();
        var ids = await connection.QueryAsync<long>($$"""
            INSERT INTO {{TestDatabase.Schema}}.outbox (channel, recipient, subject, data)
            SELECT 'webhook', @EndpointName, 'order.shipped', '{"order": ' || g || ', "carrier": "chaos"}'
            FROM generate_series(1, @count) AS g
            RETURNING id
            """, new { EndpointName, count });
        return ids.AsList();
    }

    public int MessageCount() => Accepted().Count();

    public IReadOnlyDictionary<long, int> CountByNotificationId() =>
        Accepted().GroupBy(id => id).ToDictionary(g => g.Key, g => g.Count());

    public Task StopAsync() => _receiver.StopAsync();

    public async Task StartAgainAsync()
    {
        await _receiver.RestartAsync();
        _receiver.Script.Reset();
    }

    /// <summary>From now on every request is taken and answered 200 only <paramref name="after"/> it arrived.</summary>
    public void Slow(TimeSpan after) => _receiver.Script.Always(ScriptedAnswer.Late(HttpStatusCode.OK, after));

    /// <summary>Answers at once again (requests already in hand keep their delay).</summary>
    public void Normal() => _receiver.Script.Reset();

    public IReadOnlyList<string> Violations()
    {
        var refused = _receiver.Deliveries.Where(d => !d.Verdict.Verified).ToList();
        var withoutId = _receiver.Deliveries.Count(d => d.Verdict.Verified && IdOf(d) is null);
        List<string> violations = [];
        if (refused.Count > 0)
        {
            violations.Add(string.Create(CultureInfo.InvariantCulture,
                $"{refused.Count} of {_receiver.Deliveries.Count} requests failed the receiver's signature check (first: {refused[0].Verdict.Reason})"));
        }

        if (withoutId > 0)
        {
            violations.Add(string.Create(CultureInfo.InvariantCulture, $"{withoutId} verified requests carried a webhook-id that is not a notification id"));
        }

        return violations;
    }

    public ValueTask DisposeAsync() => _receiver.DisposeAsync();

    private IEnumerable<long> Accepted() =>
        _receiver.Deliveries.Where(d => d.Verdict.Verified && d.AnsweredStatus is >= 200 and < 300)
            .Select(IdOf).OfType<long>();

    private static long? IdOf(WebhookDelivery delivery) =>
        long.TryParse(delivery.Id, NumberStyles.None, CultureInfo.InvariantCulture, out long id) && id > 0 ? id : null;
}
