using System.ComponentModel.DataAnnotations;

namespace Notifications.Shared.Hosting;

/// <summary>Which SQL dialect the outbox and delivery log live in.</summary>
public enum DatabaseProvider
{
    /// <summary>PostgreSQL (Npgsql): claims with <c>FOR UPDATE SKIP LOCKED</c>.</summary>
    Postgres,

    /// <summary>SQL Server (Microsoft.Data.SqlClient): claims with <c>ROWLOCK, READPAST</c>.</summary>
    SqlServer,
}

/// <summary>The database holding the outbox. Section <c>Database</c>; env vars <c>Database__ConnectionString</c> etc.</summary>
public sealed class DatabaseOptions
{
    /// <summary>The configuration section name.</summary>
    public const string SectionName = "Database";

    /// <summary>The SQL dialect.</summary>
    public DatabaseProvider Provider { get; set; } = DatabaseProvider.Postgres;

    /// <summary>ADO.NET connection string for <see cref="Provider"/>.</summary>
    [Required]
    public string ConnectionString { get; set; } = "";

    /// <summary>The schema holding <c>outbox</c>, <c>delivery_log</c> and <c>rejected</c>.</summary>
    [Required, RegularExpression("^[A-Za-z_][A-Za-z0-9_]{0,62}$")]
    public string Schema { get; set; } = "notifications";

    /// <summary>Timeout of every SQL command.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "00:10:00")]
    public TimeSpan CommandTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// The most connections this process opens to the database: the size of its connection pool (Npgsql's
    /// <c>Maximum Pool Size</c>, SqlClient's <c>Max Pool Size</c>). Unset: the worker's own bound, sized from its work
    /// (<see cref="ConsumerPoolSize"/>, <see cref="ProducerPoolSize"/>, <see cref="AdminPoolSize"/>,
    /// <see cref="UnsubscribePoolSize"/>). A connection string
    /// that sets its pool's size keeps it. A statement that finds every connection busy waits for one (up to the
    /// connection string's <c>Timeout</c>, 15 s by default).
    /// </summary>
    [Range(1, 1000)]
    public int? MaxPoolSize { get; set; }

    /// <summary>
    /// A consumer's bound, whatever its handlers: the delivery log's, dead letters' and suppressed records' statements are
    /// coalesced, a few in flight at once (docs/deploying.md, "Database connections").
    /// </summary>
    public const int ConsumerPoolSize = 10;

    /// <summary>A producer's bound: a claim held per lane (standard, urgent) while it publishes, the urgent listener, the backlog count, a health probe.</summary>
    public const int ProducerPoolSize = 5;

    /// <summary>The admin tool's bound: its commands run one statement at a time.</summary>
    public const int AdminPoolSize = 2;

    /// <summary>
    /// The unsubscribe server's bound: a request records at most one suppression, one statement; a burst of clicks beyond
    /// it waits for a connection instead of taking one each.
    /// </summary>
    public const int UnsubscribePoolSize = 5;

    /// <summary>The bounce receiver's bound: a report is one transaction of a few statements; a burst of reports waits for a connection.</summary>
    public const int BouncesPoolSize = 5;
}
