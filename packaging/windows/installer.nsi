; NSIS installer for Windows (scripts/package.sh: makensis -DVERSION=...
; -DSRC=<staged folder> -DOUT=<installer path> installer.nsi). Per-user
; install (no admin prompt) into %LOCALAPPDATA%\Programs\Reasonix Desktop,
; a Start menu shortcut, the example plugins, and an uninstaller.
; A 64-bit installer (it installs 64-bit programs; 64-bit-only wine, as in CI, runs it).
Target amd64-unicode
SetCompressor /SOLID lzma
Name "Reasonix Desktop ${VERSION}"
OutFile "${OUT}"
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\Reasonix Desktop"

Page directory
Page instfiles
UninstPage uninstConfirm
UninstPage instfiles

Section "Install"
  SetOutPath "$INSTDIR"
  File /r "${SRC}\*.*"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  CreateDirectory "$SMPROGRAMS\Reasonix Desktop"
  CreateShortcut "$SMPROGRAMS\Reasonix Desktop\Reasonix Desktop.lnk" "$INSTDIR\reasonix-desktop.exe"
  WriteRegStr HKCU "Software\Microsoft\Windows\CurrentVersion\Uninstall\ReasonixDesktop" "DisplayName" "Reasonix Desktop"
  WriteRegStr HKCU "Software\Microsoft\Windows\CurrentVersion\Uninstall\ReasonixDesktop" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "Software\Microsoft\Windows\CurrentVersion\Uninstall\ReasonixDesktop" "UninstallString" '"$INSTDIR\uninstall.exe"'
SectionEnd

Section "Uninstall"
  Delete "$SMPROGRAMS\Reasonix Desktop\Reasonix Desktop.lnk"
  RMDir "$SMPROGRAMS\Reasonix Desktop"
  RMDir /r "$INSTDIR"
  DeleteRegKey HKCU "Software\Microsoft\Windows\CurrentVersion\Uninstall\ReasonixDesktop"
SectionEnd
