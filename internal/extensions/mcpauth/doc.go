// Package mcpauth signs the host in to remote MCP servers as the MCP
// authorization specification says: on a 401 it reads the server's
// protected-resource metadata (RFC 9728), discovers its authorization
// server (RFC 8414 / OpenID discovery), registers a client dynamically
// (RFC 7591) or uses a pre-registered one or a client ID metadata document,
// and runs the authorization code flow with PKCE through a loopback redirect
// (http://127.0.0.1:<random port>/callback) in the user's browser. A server
// whose authorization server only offers the client credentials grant is
// signed in with the client's secret (client_secret_basic/post) or a signed
// JWT (private_key_jwt, ES256/RS256), without the user. The flow itself is
// the official go-sdk's auth.AuthorizationCodeHandler; this package adds
// what a desktop host needs around it: tokens that survive a restart, kept
// in the OS keyring (internal/foundation/secrets: a keyring or a 0600 file,
// never mcp.json), refreshed before they expire, cleared on sign-out, and a
// 401 the flow cannot fix said in words.
//
// mcpauth knows nothing of the mcp package: it takes a server's name and
// URL as strings, so it sits beside mcp as a layer of the extensions part.
//
// # API (for the core and the front ends)
//
//	a := mcpauth.New(mcpauth.Config{
//		Secrets:     store,                       // *secrets.Store
//		OpenBrowser: func(u string) error { … }, // the window's OpenURL, or the CLI's print-and-open
//		Log:         logger,
//	})
//	mcp.Options{OAuth: func(s mcp.Server) auth.OAuthHandler { return a.Handler(s.Name, s.URL) }}
//	a.SignIn(ctx, name, url)   // "Sign in" / `mcp login NAME`: runs the browser flow now
//	a.SignOut(name, url)       // forgets the tokens (and nothing else)
//	a.Status(name, url)        // signed in?, until when, refreshable?
//	a.SetClient(url, Client{…}) // a pre-registered client or client credentials the user gives
//
// A Handler used by a chat never opens the browser on its own unless
// Config.SignInOnDemand is set (the CLI's `mcp call`, the conformance
// client): a server that needs a sign-in fails its start with a
// *SignInError saying "sign in: reasonix-desktop mcp login NAME, or Sign in
// in the window's MCP servers", and the user starts the flow when they
// choose. A saved token the server refuses is refreshed once first.
//
// The sign-in is shared: every handler of one URL uses one token, one
// browser flow runs at a time per server (a connection waiting for it
// gives up with its own context, so a chat's start is not held by a
// browser left open), and the store is read again on a 401, before a
// refresh and in Status, so a sign-in made by another process (`mcp
// login` in a terminal while the window runs) reaches the open chats, and
// two processes refreshing one rotating refresh token do not lose it. A
// sign-in whose refresh the authorization server refuses (invalid_grant)
// is forgotten, so Status says signed out.
//
// Tokens are saved under the canonical form of the server's URL (scheme
// and host lower-cased, no fragment, no trailing slash), so two entries
// naming the same server share one sign-in. Every token and client secret
// read or written is registered with internal/foundation/redact, so it is
// masked wherever text reaches a log or the screen; this package logs no
// value.
package mcpauth
