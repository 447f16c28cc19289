using Microsoft.EntityFrameworkCore;

namespace Notifications.OidcProvider;

/// <summary>OpenIddict's applications, authorizations, scopes and tokens, in EF Core's in-memory store: gone with the process.</summary>
internal sealed class ProviderDbContext(DbContextOptions<ProviderDbContext> options) : DbContext(options);
