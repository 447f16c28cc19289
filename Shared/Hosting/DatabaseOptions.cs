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
}
